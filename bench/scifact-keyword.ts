/**
 * SciFact keyword ranking without the daemon: the abstracts analysed as kbox indexes them (a title
 * paragraph, and the text with the title twice as context; daemon/text/analyzer.ts) in a LanceDB table
 * with kbox's full-text index, queried as kbox queries (one OR match of the query's terms, in each of
 * `--langs`), resources ranked by their best paragraph. Seconds instead of the minutes of ingestion
 * (bench/scifact.ts), to compare analysis methods; prints nDCG@10 overall and on the even and odd query
 * ids (choose on one half, check on the other).
 *   npx tsx bench/scifact-keyword.ts [--langs en,it,de]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as lancedb from "@lancedb/lancedb";
import { ftsIndex } from "../daemon/store/paragraph-search.js";
import { analyze, keywordTerms, queryTerms } from "../daemon/text/analyzer.js";

const { values: args } = parseArgs({ options: { langs: { type: "string", default: "en" } } });
const LANGS = args.langs.split(",");
const DIR = process.env.SCIFACT_DIR ?? join(import.meta.dirname, "../../shared/eval/scifact");
const jsonl = (f: string) =>
  readFileSync(join(DIR, f), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const corpus = jsonl("corpus.jsonl") as { _id: string; title: string; text: string }[];
const queries = jsonl("queries.test.jsonl") as { _id: string; text: string }[];
const qrels = new Map<string, Set<string>>();
for (const line of readFileSync(join(DIR, "qrels/test.tsv"), "utf8").split("\n").slice(1)) {
  const [q, d, s] = line.split("\t");
  if (q && Number(s) > 0) (qrels.get(q) ?? qrels.set(q, new Set()).get(q))?.add(d);
}

function ndcg10(ranked: string[], rel: Set<string>): number {
  let dcg = 0;
  for (const [i, d] of ranked.slice(0, 10).entries()) if (rel.has(d)) dcg += 1 / Math.log2(i + 2);
  let idcg = 0;
  for (let i = 0; i < Math.min(rel.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

const home = mkdtempSync(join(tmpdir(), "kbox-scifact-keyword-"));
try {
  const db = await lancedb.connect(home);
  const rows = corpus.flatMap((d) => [
    { id: `${d._id}/a/title`, rid: d._id, terms: analyze(d.title, "en") },
    { id: `${d._id}/t/text`, rid: d._id, terms: keywordTerms(d.text, d.title, "en") },
  ]);
  const table = await db.createTable("paragraphs", rows);
  await table.createIndex("terms", { config: ftsIndex() });
  const sum = [0, 0];
  const count = [0, 0];
  for (const q of queries) {
    const rel = qrels.get(q._id);
    if (!rel) continue;
    const terms = [...new Set([...queryTerms(q.text, LANGS).values()].flat())];
    const match = new lancedb.MatchQuery(terms.join(" "), "terms", { operator: lancedb.Operator.Or });
    const hits = await table.query().fullTextSearch(match).select(["rid", "_score"]).limit(100).toArray();
    const ranked: string[] = [];
    for (const h of hits) if (!ranked.includes(h.rid)) ranked.push(h.rid);
    const half = Number(q._id) % 2;
    sum[half] += ndcg10(ranked, rel);
    count[half] += 1;
  }
  const f = (n: number) => n.toFixed(3);
  console.log(["query languages", "nDCG@10", "even ids", "odd ids"].join("\t"));
  console.log(
    [LANGS.join(","), f((sum[0] + sum[1]) / (count[0] + count[1])), f(sum[0] / count[0]), f(sum[1] / count[1])].join("\t"),
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
