import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import type { Table } from "../store/db.js";
import { sqlString } from "../store/db.js";
import { analyze, queryTerms } from "../text/analyzer.js";
import { and, FALSE, likeLiteral, not, or, TRUE } from "./sql.js";

/** A user's keyword query, parsed: `"quoted phrases"` and `+word` must match, `-word` must not, the rest should. */
export interface ParsedQuery {
  should: string;
  must: string[];
  phrases: string[];
  mustNot: string[];
}

export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { should: "", must: [], phrases: [], mustNot: [] };
  const rest: string[] = [];
  for (const m of q.matchAll(/([+-]?)"([^"]*)"|(\S+)/g)) {
    if (m[2] !== undefined) {
      if (m[1] === "-") out.mustNot.push(m[2]);
      else if (m[2].trim()) out.phrases.push(m[2]);
      continue;
    }
    const tok = m[3];
    if (tok.length > 1 && tok.startsWith("-")) out.mustNot.push(tok.slice(1));
    else if (tok.length > 1 && tok.startsWith("+")) out.must.push(tok.slice(1));
    else rest.push(tok);
  }
  out.should = rest.join(" ");
  return out;
}

/** Every word of the query that can match, for highlighting: should, must and phrase words. */
export function positiveText(p: ParsedQuery): string {
  return [p.should, ...p.must, ...p.phrases].join(" ");
}

const phraseSql = (t: string) => `(' ' || terms || ' ') LIKE ${sqlString(`% ${likeLiteral(t)} %`)}`;

/**
 * The LanceDB full-text query and the SQL that completes it. Phrases are required terms in the
 * index query plus a contiguity test in SQL: LanceDB's phrase query misses rows not yet indexed,
 * while this form finds them too. A term group is analysed in each of the KB's languages.
 */
export function buildKeyword(p: ParsedQuery, langs: string[]): { query?: lancedb.FullTextQuery; where: string } {
  const clauses: [lancedb.Occur, lancedb.FullTextQuery][] = [];
  const where: string[] = [];
  const match = (text: string, op: lancedb.Operator) => new lancedb.MatchQuery(text, "terms", { operator: op });
  const union = (text: string) => [...new Set([...queryTerms(text, langs).values()].flat())];
  const should = union(p.should);
  if (should.length) clauses.push([lancedb.Occur.Should, match(should.join(" "), lancedb.Operator.Or)]);
  for (const w of p.must) {
    const alts = union(w);
    if (alts.length) clauses.push([lancedb.Occur.Must, match(alts.join(" "), lancedb.Operator.Or)]);
  }
  for (const ph of p.phrases) {
    const alts = [...new Set(langs.map((l) => analyze(ph, l)).filter(Boolean))];
    if (!alts.length) continue;
    clauses.push([lancedb.Occur.Must, match(alts.join(" "), alts.length > 1 ? lancedb.Operator.Or : lancedb.Operator.And)]);
    where.push(or(alts.map(phraseSql)));
  }
  for (const w of p.mustNot) {
    const alts = [...new Set(langs.map((l) => analyze(w, l)).filter(Boolean))];
    if (alts.length) where.push(not(or(alts.map(phraseSql))));
  }
  if (!clauses.length) return { where: FALSE };
  const query =
    clauses.length === 1 && clauses[0][0] === lancedb.Occur.Should ? clauses[0][1] : new lancedb.BooleanQuery(clauses);
  return { query, where: and(where) };
}

/** Columns a result needs (never the vectors): every one read costs on each query. */
export const RESULT_COLUMNS = ["id", "rid", "field", "start", "end", "page", "idx", "kind", "is_table", "labels", "text", "lang"];

export type Hit = Record<string, unknown> & { id: string; rid: string; score: number };

/**
 * Rows of a query result as plain hits, read column by column: cheaper than Arrow's row proxies,
 * whose every member read goes through a visitor. Best first, ties by id.
 */
export function hitsOf(t: ArrowTable, scoreColumn: string, score: (raw: number) => number): Hit[] {
  const cols = [...RESULT_COLUMNS, scoreColumn].map((c) => [c, t.getChild(c)] as const);
  const out: Hit[] = Array.from({ length: t.numRows }, () => ({}) as Hit);
  for (const [name, col] of cols) {
    if (!col) continue;
    const values = name === "labels" ? undefined : col.toArray();
    for (let i = 0; i < out.length; i++) (out[i] as Record<string, unknown>)[name] = values ? values[i] : col.get(i);
  }
  for (const h of out) h.score = score(Number(h[scoreColumn]));
  return out.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** BM25 top `limit` paragraphs under a prefilter, best first. */
export async function keywordSearch(table: Table, query: string, langs: string[], filter: string, limit: number): Promise<Hit[]> {
  const built = buildKeyword(parseQuery(query), langs);
  const where = and([filter, built.where]);
  if (!built.query || where === FALSE) return [];
  let q = table
    .query()
    .fullTextSearch(built.query)
    .select([...RESULT_COLUMNS, "_score"])
    .limit(limit);
  if (where !== TRUE) q = q.where(where);
  return hitsOf(await q.toArrow(), "_score", (s) => s);
}
