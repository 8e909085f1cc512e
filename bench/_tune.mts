import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../daemon/store/db.ts";
import { ParagraphStore, type ParagraphRow } from "../daemon/store/paragraphs.ts";
import { IndexMaintainer } from "../daemon/search/maintenance.ts";
import { keywordSearch } from "../daemon/search/keyword.ts";
import { analyze } from "../daemon/search/analyzer.ts";
const DIR = "/work/shared/eval/scifact";
const jsonl = (f: string) => readFileSync(join(DIR, f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const corpus = jsonl("corpus.jsonl");
const queries = jsonl("queries.test.jsonl");
const qrels = new Map<string, Set<string>>();
for (const line of readFileSync(join(DIR, "qrels/test.tsv"), "utf8").split("\n").slice(1)) { const [q, d] = line.split("\t"); if (q && d) (qrels.get(q) ?? qrels.set(q, new Set()).get(q))!.add(d); }
function ndcg10(ranked: string[], rel: Set<string>) { let dcg = 0; ranked.slice(0, 10).forEach((d, i) => { if (rel.has(d)) dcg += 1 / Math.log2(i + 2); }); let idcg = 0; for (let i = 0; i < Math.min(rel.size, 10); i++) idcg += 1 / Math.log2(i + 2); return dcg / idcg; }
async function build(variant: string) {
  const db = await openDb(join(mkdtempSync(join(tmpdir(), "tune-")), "db"));
  const ps = await ParagraphStore.open(db);
  const m = new IndexMaintainer(ps, 1e9);
  await m.ensureFts();
  const row = (rid: string, field: string, text: string, kind: string, terms?: string): ParagraphRow => ({ id: `${rid}/${field}/0-${text.length}`, rid, field, field_type: "text", split: "", start: 0, end: text.length, page: 0, idx: 0, kind, is_table: false, labels: [], facets: [], text, lang: "en", path: "", created: 0, modified: 0, hidden: false, groups: [], hash: "", terms });
  await Promise.all(corpus.map((d: any) => {
    const t = analyze(d.title, "en");
    const body = analyze(d.text, "en");
    const rows = variant === "ctx2" ? [row(d._id, "a/title", d.title, "TITLE"), row(d._id, "t/text", d.text, "TEXT", `${t} ${t} ${body}`)] : variant === "ctx" ? [row(d._id, "a/title", d.title, "TITLE"), row(d._id, "t/text", d.text, "TEXT", `${t} ${body}`)] : variant === "one" ? [row(d._id, "t/text", d.text, "TEXT", `${t} ${body}`)] : [row(d._id, "a/title", d.title, "TITLE"), row(d._id, "t/text", d.text, "TEXT")];
    return ps.replaceField(d._id, "x", rows);
  }));
  await m.refresh();
  return ps;
}
for (const variant of ["ctx2"]) {
  const ps = await build(variant);
  for (const agg of ["max", "sum"]) {
    let n = 0, c = 0;
    for (const q of queries) { const rel = qrels.get(q._id); if (!rel) continue; c++;
      const hits = await keywordSearch(ps.table, q.text, ["en", ""], "true", 200);
      const score = new Map<string, number>();
      for (const h of hits) score.set(h.rid, agg === "max" ? Math.max(score.get(h.rid) ?? 0, h.score) : (score.get(h.rid) ?? 0) + h.score);
      const ranked = [...score.entries()].sort((a, b) => b[1] - a[1]).map((x) => x[0]);
      n += ndcg10(ranked, rel);
    }
    console.log(variant, agg, (n / c).toFixed(4));
  }
}
