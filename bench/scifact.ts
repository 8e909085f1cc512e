/**
 * SciFact retrieval quality through the public API: ingest every abstract as one resource (title =
 * title, text field `text` = abstract, slug = _id), run /find for every test claim, map paragraphs to
 * resources (best paragraph per resource) and print nDCG@10 and Recall@100 for keyword, semantic
 * (when an embedding model is installed) and hybrid.   npx tsx bench/scifact.ts [--limit N] [--files]
 * --files: as `kbox add` of a folder of one Markdown file per abstract (`# title`, a blank line, the
 * abstract), uploaded as files: the title comes from the heading, as a user's notes would have it.
 * The data stays in ../shared/eval; nothing of it is copied into the package.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon } from "../daemon/server.js";
import type { ParagraphRow } from "../daemon/store/paragraphs.js";
import * as find from "../src/api/find.js";
import * as kbs from "../src/api/kbs.js";
import * as resources from "../src/api/resources.js";
import { KboxClient } from "../src/client/client.js";
import { directUpload } from "../src/client/upload.js";

const DIR = process.env.SCIFACT_DIR ?? join(import.meta.dirname, "../../shared/eval/scifact");
const limitArg = process.argv.indexOf("--limit");
const LIMIT = limitArg > 0 ? Number(process.argv[limitArg + 1]) : Number.POSITIVE_INFINITY;
const FILES = process.argv.includes("--files");

const jsonl = (f: string) =>
  readFileSync(join(DIR, f), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const corpus = jsonl("corpus.jsonl") as { _id: string; title: string; text: string }[];
const queries = (jsonl("queries.test.jsonl") as { _id: string; text: string }[]).slice(0, LIMIT);
const qrels = new Map<string, Set<string>>();
for (const line of readFileSync(join(DIR, "qrels/test.tsv"), "utf8").split("\n").slice(1)) {
  const [q, d, s] = line.split("\t");
  if (q && Number(s) > 0) (qrels.get(q) ?? qrels.set(q, new Set()).get(q))?.add(d);
}

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

function ndcg10(ranked: string[], rel: Set<string>): number {
  let dcg = 0;
  for (const [i, d] of ranked.slice(0, 10).entries()) if (rel.has(d)) dcg += 1 / Math.log2(i + 2);
  let idcg = 0;
  for (let i = 0; i < Math.min(rel.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  return idcg ? dcg / idcg : 0;
}
const recall100 = (ranked: string[], rel: Set<string>) => ranked.slice(0, 100).filter((d) => rel.has(d)).length / rel.size;

const home = mkdtempSync(join(tmpdir(), "kbox-scifact-"));
const daemon = await startDaemon({ env: { ...process.env, KBOX_HOME: home } });
const client = new KboxClient({ kind: "unix", socket: daemon.paths.socket });
try {
  const { uuid: kbid } = await client.call(kbs.createKb, { body: { slug: "scifact" } });
  const slugToRid = new Map<string, string>();
  const ridToSlug = new Map<string, string>();
  let t0 = performance.now();
  const folder = join(home, "notes");
  if (FILES) mkdirSync(folder);
  await pool(corpus, 8, async (doc) => {
    if (FILES) {
      const path = join(folder, `${doc._id}.md`);
      writeFileSync(path, `# ${doc.title}\n\n${doc.text}\n`);
      const { uuid } = await directUpload(client, { kbid, path });
      slugToRid.set(doc._id, uuid);
      ridToSlug.set(uuid, doc._id);
      return;
    }
    const body = { slug: `d${doc._id}`, title: doc.title, texts: { text: { body: doc.text, format: "PLAIN" as const } } };
    const { uuid } = await client.call(resources.createResource, { params: { kbid }, body });
    slugToRid.set(doc._id, uuid);
    ridToSlug.set(uuid, doc._id);
  });
  console.error(`created ${corpus.length} resources in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const store = await daemon.services.store.kb(kbid);
  // Wait for the processing queue; without one (or when it stalls) index the same paragraphs directly.
  t0 = performance.now();
  let processed = 0;
  while (performance.now() - t0 < 600_000) {
    processed = [...store.resources.values()].filter((r) => r.metadata.status !== "PENDING").length;
    if (processed === corpus.length) break;
    if (processed === 0 && performance.now() - t0 > 15_000) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  let mode = FILES ? "Markdown files, ingestion queue" : "ingestion queue";
  if (processed < corpus.length) {
    mode = "paragraphs written directly (ingestion queue not available)";
    const now = Date.now();
    const row = (rid: string, field: string, text: string, kind: string, context?: string): ParagraphRow => ({
      id: `${rid}/${field}/0-${text.length}`,
      rid,
      field,
      field_type: field.startsWith("a/") ? "generic" : "text",
      split: "",
      start: 0,
      end: text.length,
      page: 0,
      idx: 0,
      kind,
      is_table: false,
      labels: [],
      facets: [],
      text,
      lang: "en",
      path: "",
      created: now,
      modified: now,
      hidden: false,
      groups: [],
      hash: "",
      context,
    });
    await Promise.all(
      corpus.map((d) => {
        const rid = slugToRid.get(d._id) as string;
        return Promise.all([
          store.paragraphs.replaceField(rid, "a/title", [row(rid, "a/title", d.title, "TITLE")]),
          store.paragraphs.replaceField(rid, "t/text", [row(rid, "t/text", d.text, "TEXT", d.title)]),
        ]);
      }),
    );
  }
  const m = await daemon.services.search.maintainer(store);
  t0 = performance.now();
  await m.refresh();
  console.error(`indexed (${mode}); optimize ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const models = (daemon.services as unknown as { models?: { embedderFor(kb: string): Promise<unknown> } }).models;
  const semantic = Boolean(await models?.embedderFor(kbid).catch(() => undefined));
  const runs: [string, find.FindBody["features"]][] = [["keyword", ["keyword"]]];
  if (semantic) runs.push(["semantic", ["semantic"]], ["hybrid", ["keyword", "semantic"]]);
  const rows: string[][] = [];
  for (const [name, features] of runs) {
    let n = 0;
    let r = 0;
    // Two halves (odd and even query ids): a method change chosen on one half is checked on the other.
    const half = [0, 0];
    const lat: number[] = [];
    for (const q of queries) {
      const rel = qrels.get(q._id);
      if (!rel) continue;
      const t = performance.now();
      const res = await client.call(find.find, {
        params: { kbid },
        body: { query: q.text, features, top_k: 100, reranker: "noop" },
      });
      lat.push(performance.now() - t);
      const ranked: string[] = [];
      for (const id of res.best_matches) {
        const doc = ridToSlug.get(id.split("/")[0]);
        if (doc && !ranked.includes(doc)) ranked.push(doc);
      }
      const g = ndcg10(ranked, rel);
      n += g;
      half[Number(q._id) % 2] += g;
      r += recall100(ranked, rel);
    }
    const count = queries.filter((q) => qrels.has(q._id)).length;
    lat.sort((a, b) => a - b);
    const halves = [0, 1].map((h) => queries.filter((q) => qrels.has(q._id) && Number(q._id) % 2 === h).length);
    rows.push([
      name,
      (n / count).toFixed(3),
      (r / count).toFixed(3),
      lat[Math.floor(lat.length / 2)].toFixed(1),
      `${(half[0] / halves[0]).toFixed(3)} / ${(half[1] / halves[1]).toFixed(3)}`,
    ]);
  }
  if (!semantic)
    rows.push(
      ["semantic", "n/a", "n/a", "no embedding model installed"],
      ["hybrid", "n/a", "n/a", "no embedding model installed"],
    );
  console.log(`SciFact test (${queries.length} queries, ${corpus.length} docs; ${mode})`);
  console.log(["mode", "nDCG@10", "Recall@100", "p50 ms", "nDCG@10 even / odd ids"].join("\t"));
  for (const row of rows) console.log(row.join("\t"));
} finally {
  await daemon.stop();
  rmSync(home, { recursive: true, force: true });
}
