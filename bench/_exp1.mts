import * as lancedb from "@lancedb/lancedb";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "/work/main/daemon/store/db.ts";
import { ParagraphStore, type ParagraphRow } from "/work/main/daemon/store/paragraphs.ts";
const db = await openDb(join(mkdtempSync(join(tmpdir(), "x-")), "db"));
const ps = await ParagraphStore.open(db);
const t = ps.table;
function row(rid: string, i: number, text: string, facets: string[] = []): ParagraphRow {
  return { id: `${rid}/t/b/${i}-${i + 1}`, rid, field: "t/b", field_type: "text", split: "", start: i, end: i + 1, page: 0, idx: i, kind: "TEXT", is_table: false, labels: [], facets, text, lang: "en", path: "/a/b", created: 1, modified: 1, hidden: false, groups: [], hash: "" };
}
try { await t.createIndex("text", { config: lancedb.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, withPosition: true }) }); console.log("empty index ok"); } catch (e) { console.log("empty index fail", (e as Error).message); }
await ps.replaceField("r1", "t/b", [row("r1", 0, "the quick brown fox", ["/l/a/b", "/t/x"]), row("r1", 1, "lazy dog sleeps", ["/l/a/c"])]);
try { const r = await t.query().fullTextSearch("fox").limit(5).toArray(); console.log("fts unindexed", r.map((x) => [x.text, x._score])); } catch (e) { console.log("fts fail", (e as Error).message); }
await t.createIndex("text", { config: lancedb.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, withPosition: true }) });
await ps.replaceField("r2", "t/b", [row("r2", 0, "another fox here", ["/l/a/b"])]);
let r = await t.query().fullTextSearch("fox").limit(5).toArray(); console.log("fts mixed", r.map((x) => [x.id, x._score]));
r = await t.query().fullTextSearch("fox").where("rid = 'r2'").limit(5).toArray(); console.log("fts where", r.map((x) => [x.id, x._score]));
r = await t.query().fullTextSearch(new lancedb.PhraseQuery("quick brown", "text")).limit(5).toArray(); console.log("phrase", r.map((x) => [x.id, x._score]));
r = await t.query().fullTextSearch(new lancedb.MatchQuery("quick fox", "text", { operator: lancedb.Operator.And })).limit(5).toArray(); console.log("and", r.map((x) => [x.id, x._score]));
for (const w of ["array_has(facets, '/l/a/b')", "array_has_any(facets, make_array('/l/a/c','/t/x'))", "array_to_string(facets, '|') LIKE '%/l/a/%'", "path LIKE '/a/%'", "starts_with(path, '/a')", "regexp_like(path, '^/a(/|$)')", "cardinality(groups) = 0", "array_length(groups) IS NULL", "array_has_any(groups, make_array('g1'))"]) {
  try { const n = await t.countRows(w); const q = await t.query().fullTextSearch("fox").where(w).limit(3).toArray(); console.log(w, n, q.length); } catch (e) { console.log(w, "FAIL", (e as Error).message.slice(0, 150)); }
}
console.log(await t.listIndices());
