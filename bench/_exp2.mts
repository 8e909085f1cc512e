import * as lancedb from "@lancedb/lancedb";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../daemon/store/db.ts";
import { ParagraphStore, type ParagraphRow } from "../daemon/store/paragraphs.ts";
const db = await openDb(join(mkdtempSync(join(tmpdir(), "x-")), "db"));
const ps = await ParagraphStore.open(db);
const t = ps.table;
await ps.ensureVectorset("v", 3);
function row(rid: string, i: number, text: string, v?: number[]): ParagraphRow {
  return { id: `${rid}/t/b/${i}-${i + 1}`, rid, field: "t/b", field_type: "text", split: "", start: i, end: i + 1, page: 0, idx: i, kind: "TEXT", is_table: false, labels: [], facets: [], text, lang: "en", path: "/a/b", created: 1, modified: 1, hidden: false, groups: [], hash: "", vectors: v ? { v } : undefined };
}
await t.createIndex("terms", { config: lancedb.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: true }) });
await ps.replaceField("r1", "t/b", [row("r1", 0, "the quick brown foxes jumped", [1, 0, 0]), row("r1", 1, "lazy dog sleeps", [0, 1, 0]), row("r1", 2, "cat and fox", undefined)]);
const M = (q: string) => new lancedb.MatchQuery(q, "terms");
const show = async (name: string, q: any) => { try { const r = await t.query().fullTextSearch(q).select(["id", "terms"]).limit(5).toArray(); console.log(name, r.map((x) => [x.id, x.terms, x._score])); } catch (e) { console.log(name, "FAIL", (e as Error).message.slice(0, 200)); } };
await show("should only", new lancedb.BooleanQuery([[lancedb.Occur.Should, M("fox dog")]]));
await show("should + mustnot", new lancedb.BooleanQuery([[lancedb.Occur.Should, M("fox dog")], [lancedb.Occur.MustNot, M("cat")]]));
await show("must + should", new lancedb.BooleanQuery([[lancedb.Occur.Must, M("fox")], [lancedb.Occur.Should, M("quick")]]));
await show("phrase in bool", new lancedb.BooleanQuery([[lancedb.Occur.Must, new lancedb.PhraseQuery("quick brown", "terms")]]));
await show("mustnot only", new lancedb.BooleanQuery([[lancedb.Occur.MustNot, M("cat")]]));
await show("empty match", M(""));
await show("string", "fox");
try { const r = await t.query().nearestTo([1, 0.1, 0]).column("vec_v").distanceType("cosine").limit(5).select(["id"]).toArray(); console.log("vec", r.map((x) => [x.id, x._distance])); } catch (e) { console.log("vec FAIL", (e as Error).message); }
try { const r = await t.query().nearestTo([1, 0.1, 0]).column("vec_v").distanceType("cosine").where("vec_v IS NOT NULL AND rid = 'r1'").limit(5).select(["id"]).toArray(); console.log("vec where", r.map((x) => [x.id, x._distance])); } catch (e) { console.log("vec FAIL", (e as Error).message); }
console.log("---- after optimize");
await t.optimize();
await show("phrase in bool", new lancedb.BooleanQuery([[lancedb.Occur.Must, new lancedb.PhraseQuery("quick brown", "terms")]]));
await show("phrase", new lancedb.PhraseQuery("quick brown", "terms"));
await ps.replaceField("r2", "t/b", [row("r2", 0, "very quick brown thing", [1, 0, 0])]);
await show("phrase mixed", new lancedb.PhraseQuery("quick brown", "terms"));
console.log(await t.indexStats("terms_idx"));
