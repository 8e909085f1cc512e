import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import { analyze, queryTerms } from "../text/analyzer.js";
import type { Table } from "./db.js";
import { sqlString } from "./db.js";
import type { ParagraphRow } from "./paragraph-row.js";
import { and, FALSE, likeLiteral, not, or, TRUE } from "./sql.js";

/** A keyword query, parsed: `phrases` and `must` words must match, `mustNot` words must not, `should` words rank. */
export interface KeywordQuery {
  should: string;
  must: string[];
  phrases: string[];
  mustNot: string[];
}

/** The columns a search result reads (never the vectors). */
export const HIT_COLUMNS = [
  "id",
  "rid",
  "field",
  "start",
  "end",
  "page",
  "idx",
  "kind",
  "is_table",
  "labels",
  "text",
  "lang",
] as const;

/** One paragraph found by a search: the row's HIT_COLUMNS and its score. */
export type ParagraphHit = Pick<ParagraphRow, (typeof HIT_COLUMNS)[number]> & {
  /** BM25 score (keyword) or 1 - cosine distance (semantic). */
  score: number;
  /** Of an `ids` pass: the row's address in the version it was read from, so completing it is a take, not a query. */
  rowid?: number;
};

/** ANN search settings once a vector index exists; refinement re-ranks candidates with exact distances. */
export interface AnnSettings {
  indexed: boolean;
  nprobes: number;
  refineFactor: number;
}

/** Columns a result reads: every one read costs on each query. */
/** The columns of a first pass that only ranks (see ParagraphStore.complete). */
const ID_COLUMNS = ["id", "rid"];

/** `ids`: only id, rid and score, for a larger fetch whose hits are mostly dropped (complete the kept ones). */
export type HitColumns = "all" | "ids";

/** The keyword terms of `word` (in any of `langs`) as a contiguous run in the `terms` column. */
export function termsSql(word: string, langs: string[]): string {
  const alts = new Set(langs.map((l) => analyze(word, l)).filter(Boolean));
  if (!alts.size) return FALSE;
  return or([...alts].map(phraseSql));
}

const phraseSql = (t: string) => `(' ' || terms || ' ') LIKE ${sqlString(`% ${likeLiteral(t)} %`)}`;

/**
 * The LanceDB full-text query and the SQL that completes it. Phrases are required terms in the
 * index query plus a contiguity test in SQL: LanceDB's phrase query misses rows not yet indexed,
 * while this form finds them too. A term group is analysed in each of the KB's languages.
 */
export function buildKeyword(p: KeywordQuery, langs: string[]): { query?: lancedb.FullTextQuery; where: string } {
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

/**
 * Rows of a query result as hits, read column by column: cheaper than Arrow's row proxies, whose
 * every member read goes through a visitor. Best first, ties by id.
 */
export function hitsOf(t: ArrowTable, scoreColumn: string, score: (raw: number) => number): ParagraphHit[] {
  const cols = [...HIT_COLUMNS, scoreColumn].map((c) => [c, t.getChild(c)] as const);
  const rowids = t.getChild("_rowid");
  const out = Array.from({ length: t.numRows }, () => ({}) as Record<string, unknown>);
  for (const [name, col] of cols) {
    if (!col) continue;
    const values = name === "labels" ? undefined : col.toArray();
    for (let i = 0; i < out.length; i++) out[i][name] = values ? values[i] : col.get(i);
  }
  if (rowids) for (let i = 0; i < out.length; i++) out[i].rowid = Number(rowids.get(i));
  const hits = out.map((h) => {
    const labels = h.labels as ArrayLike<string> | null | undefined;
    return { ...h, labels: labels ? Array.from(labels) : [], score: score(Number(h[scoreColumn])) } as ParagraphHit &
      Record<string, unknown>;
  });
  for (const h of hits) delete h[scoreColumn];
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** BM25 top `limit` paragraphs under a prefilter, best first. */
export async function keywordSearch(
  table: Table,
  query: KeywordQuery,
  langs: string[],
  filter: string,
  limit: number,
  columns: HitColumns = "all",
): Promise<ParagraphHit[]> {
  const built = buildKeyword(query, langs);
  const where = and([filter, built.where]);
  if (!built.query || where === FALSE) return [];
  let q = table
    .query()
    .fullTextSearch(built.query)
    .select([...(columns === "ids" ? ID_COLUMNS : HIT_COLUMNS), "_score"])
    .limit(limit);
  if (columns === "ids") q = q.withRowId();
  if (where !== TRUE) q = q.where(where);
  return hitsOf(await q.toArrow(), "_score", (s) => s);
}

/**
 * Nearest paragraphs by cosine similarity (score = 1 - cosine distance) in one vector column, under
 * a prefilter. Exact while the column has no vector index; ANN with refinement after.
 */
export async function vectorSearch(
  table: Table,
  column: string,
  vector: number[],
  filter: string,
  limit: number,
  ann?: AnnSettings,
  columns: HitColumns = "all",
): Promise<ParagraphHit[]> {
  // Rows without a vector (not embedded yet) are skipped by the search itself; an IS NOT NULL
  // filter would only turn the search into a filtered scan.
  if (filter === FALSE) return [];
  let q = table
    .query()
    .nearestTo(vector)
    .column(column)
    .distanceType("cosine")
    .select([...(columns === "ids" ? ID_COLUMNS : HIT_COLUMNS), "_distance"])
    .limit(limit);
  if (columns === "ids") q = q.withRowId();
  if (filter !== TRUE) q = q.where(filter);
  if (ann?.indexed) q = q.nprobes(ann.nprobes).refineFactor(ann.refineFactor);
  else q = q.bypassVectorIndex();
  return hitsOf(await q.toArrow(), "_distance", (d) => 1 - d);
}

/**
 * The nearest paragraphs among the resources `keep` accepts, for a resource set too large to send as a
 * prefilter: the index's approximate top `candidates` (from its codes: no vector is read) are narrowed to
 * the kept resources first, and only those are re-ranked with exact distances, from one take of their
 * vectors. LanceDB's refinement of an over-fetch ranks the same candidates but reads every one's vector,
 * mostly of rows the filter then drops. Hits carry id, rid, score and row address (complete them);
 * `exhausted`: the index had fewer candidates. Undefined when the addresses went stale in between.
 */
export async function nearestKept(
  table: Table,
  column: string,
  vector: number[],
  filter: string,
  keep: (rid: string) => boolean,
  window: number,
  candidates: number,
  nprobes: number,
): Promise<{ hits: ParagraphHit[]; exhausted: boolean } | undefined> {
  if (filter === FALSE) return { hits: [], exhausted: true };
  let q = table
    .query()
    .nearestTo(vector)
    .column(column)
    .distanceType("cosine")
    .nprobes(nprobes)
    .select(["rid", "_distance"])
    .withRowId()
    .limit(candidates);
  if (filter !== TRUE) q = q.where(filter);
  const found = await q.toArrow();
  const rids = found.getChild("rid");
  const rowids = found.getChild("_rowid");
  const kept: bigint[] = [];
  for (let i = 0; i < found.numRows; i++) if (keep(String(rids?.get(i)))) kept.push(BigInt(rowids?.get(i)));
  const exhausted = found.numRows < candidates;
  if (!kept.length) return { hits: [], exhausted };
  const taken = await table
    .takeRowIds(kept)
    .select(["id", "rid", column])
    .withRowId()
    .toArrow()
    .catch(() => undefined);
  if (!taken || taken.numRows !== kept.length) return undefined;
  const norm = Math.hypot(...vector);
  const [ids, ridCol, vecs, addr] = ["id", "rid", column, "_rowid"].map((c) => taken.getChild(c));
  const hits: ParagraphHit[] = [];
  for (let i = 0; i < taken.numRows; i++) {
    const v = vecs?.get(i)?.toArray() as Float32Array | undefined;
    if (!v) continue;
    let dot = 0;
    let vv = 0;
    for (let j = 0; j < v.length; j++) {
      dot += v[j] * vector[j];
      vv += v[j] * v[j];
    }
    const score = vv && norm ? dot / (Math.sqrt(vv) * norm) : 0;
    hits.push({ id: String(ids?.get(i)), rid: String(ridCol?.get(i)), rowid: Number(addr?.get(i)), score } as ParagraphHit);
  }
  hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { hits: hits.slice(0, window), exhausted };
}

/** The full-text index's name. */
export const TERMS_INDEX = "terms_idx";
/** Vector index type built and expected: an index of another type (an older kbox's) is rebuilt. */
export const VECTOR_INDEX_TYPE = "IvfRq";

/** The full-text index: a whitespace tokenizer over terms the analyzer already produced. */
export const ftsIndex = () =>
  lancedb.Index.fts({
    baseTokenizer: "whitespace",
    lowercase: false,
    stem: false,
    removeStopWords: false,
    asciiFolding: false,
    withPosition: false,
  });

/** One index of the paragraph table. */
export interface IndexInfo {
  name: string;
  column: string;
  /** The vectorset of a vector index. */
  vectorset?: string;
  /** Of the kind kbox builds today (the full-text index, or IVF_RQ for vectors); an older kind is rebuilt. */
  current: boolean;
  indexedRows: number;
  unindexedRows: number;
}
