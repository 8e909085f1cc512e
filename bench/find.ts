/**
 * Find latency at scale: p50/p95 of keyword, semantic, hybrid and hybrid + filter through the
 * search service, next to the same LanceDB queries issued directly in the same process (the
 * overhead ratio), plus what building/refreshing the indexes (optimize) costs and the ANN recall@20.
 *   npx tsx bench/find.ts [paragraphs=10000] [queries=50] [--s3]      e.g. npx tsx bench/find.ts 100000
 * With --s3 the daemon's data is on a local S3-compatible server (test/helpers/s3.ts, KBOX_DATA_URI):
 * the same figures on object storage, next to a run without it on local disk.
 * BENCH_FIND_HOME=<dir> keeps the generated box there and reuses it on the next run with the same size (building
 * 1M paragraphs takes minutes; the queries then run against the same data).
 * Synthetic text (Zipf-distributed vocabulary) and clustered 384-d unit vectors; query embedding excluded.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { parseQuery } from "../daemon/search/keyword.js";
import { startDaemon } from "../daemon/server.js";
import { buildKeyword, HIT_COLUMNS } from "../daemon/store/paragraph-search.js";
import type { ParagraphRow } from "../daemon/store/paragraphs.js";
import type { ResourceDoc } from "../daemon/store/records.js";
import { KboxClient } from "../src/client/client.js";
import { readAll } from "../src/client/transport.js";
import { startLocalS3 } from "../test/helpers/s3.js";
import { activityOverhead } from "./activity-overhead.js";

const ARGS = process.argv.slice(2).filter((a) => a !== "--s3");
const ON_S3 = process.argv.includes("--s3");
const N = Number(ARGS[0] ?? 10_000);
const Q = Number(ARGS[1] ?? 50);
const DIM = 384;
const PER_RESOURCE = 10;

let seed = 42;
function rand(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
const SYL = [
  "ka",
  "lo",
  "mi",
  "ne",
  "ru",
  "ta",
  "vi",
  "so",
  "pe",
  "da",
  "gu",
  "fe",
  "xo",
  "bri",
  "sta",
  "mon",
  "tel",
  "par",
  "qui",
  "zen",
];
const VOCAB = Array.from({ length: 20_000 }, (_, i) => {
  let w = "";
  for (let n = i + 7; n > 0 || w.length < 4; n = Math.floor(n / SYL.length)) w += SYL[n % SYL.length];
  return w;
});
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.exp(rand() * Math.log(VOCAB.length))) - 1)];
const sentence = (n: number) => Array.from({ length: n }, zipf).join(" ");
const CENTROIDS = Array.from({ length: 64 }, () => Array.from({ length: DIM }, gauss));
function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
const vectorNear = (c: number[], noise: number) => unit(c.map((x) => x + noise * gauss()));

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
/**
 * Time kbox and the raw LanceDB calls on the same inputs, interleaved, so caches warm both alike;
 * which one runs first alternates, since the second run of a query finds its index pages cached.
 */
async function timePair<T>(
  input: () => T,
  kbox: (x: T) => Promise<unknown>,
  raw: (x: T) => Promise<unknown>,
): Promise<[number[], number[]]> {
  const x0 = input();
  await kbox(x0);
  await raw(x0);
  const k: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < Q; i++) {
    const x = input();
    const runs: [() => Promise<unknown>, number[]][] = [
      [() => kbox(x), k],
      [() => raw(x), r],
    ];
    if (i % 2) runs.reverse();
    for (const [run, times] of runs) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
  }
  return [k, r];
}

/** One find through the daemon's socket, read to the end. */
async function rawFind(client: KboxClient, kbid: string, body: unknown): Promise<void> {
  const res = await client.raw({
    method: "POST",
    path: `/api/v1/kb/${kbid}/find`,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await readAll(res.body);
}

const load0 = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");
const keep = process.env.BENCH_FIND_HOME ? join(process.env.BENCH_FIND_HOME, String(N)) : undefined;
const reuse = Boolean(keep && existsSync(keep));
const home = keep ?? mkdtempSync(join(tmpdir(), "kbox-bench-find-"));
const s3 = ON_S3 ? await startLocalS3(["bench"]) : undefined;
const s3Env = s3 ? { ...s3.env, KBOX_DATA_URI: "s3://bench/find" } : {};
const daemon = await startDaemon({ env: { ...process.env, KBOX_HOME: home, ...s3Env } });
try {
  const s = daemon.services;
  const kb = s.kbs.list().find((k) => k.slug === "bench") ?? (await s.kbs.create({ slug: "bench" }));
  const store = await s.store.kb(kb.uuid);
  const t0 = performance.now();
  const R = Math.ceil(N / PER_RESOURCE);
  if (!reuse) await load();
  const loadMs = performance.now() - t0;
  async function load(): Promise<void> {
    await store.paragraphs.ensureVectorset("bench", DIM);
    const now = new Date().toISOString();
    for (let r = 0; r < R; r++) {
      const rid = r.toString(16).padStart(32, "0");
      const doc: ResourceDoc = {
        id: rid,
        title: sentence(5),
        metadata: { status: "PROCESSED", language: "en" },
        created: now,
        modified: now,
        last_seqid: r,
        queue: "private",
        fields: {},
      };
      if (r % 10 === 0) doc.usermetadata = { classifications: [{ labelset: "topic", label: "ten" }] };
      void store.resources.put(rid, doc);
    }
    await store.resources.idle();
    const BATCH = 10_000;
    for (let start = 0; start < N; start += BATCH) {
      const rows: ParagraphRow[] = [];
      for (let i = start; i < Math.min(N, start + BATCH); i++) {
        const rid = Math.floor(i / PER_RESOURCE)
          .toString(16)
          .padStart(32, "0");
        const text = sentence(30 + Math.floor(rand() * 50));
        const p: ParagraphRow = {
          id: `${rid}/t/body/${i}-${i + text.length}`,
          rid,
          field: "t/body",
          field_type: "text",
          split: "",
          start: i,
          end: i + text.length,
          page: 0,
          idx: i % PER_RESOURCE,
          kind: "TEXT",
          is_table: false,
          labels: [],
          facets: [],
          text,
          lang: "en",
          path: "",
          created: 0,
          modified: 0,
          hidden: false,
          groups: [],
          hash: "",
          vectors: { bench: vectorNear(CENTROIDS[i % CENTROIDS.length], 0.6) },
        };
        rows.push(p);
      }
      await store.paragraphs.bulkAdd(rows);
    }
  }
  const m = await s.search.maintainer(store);
  const t1 = performance.now();
  await m.refresh();
  const indexMs = performance.now() - t1;

  const words = () => `${zipf()} ${zipf()} ${VOCAB[Math.floor(rand() * 2000)]}`;
  const qv = () => vectorNear(CENTROIDS[Math.floor(rand() * CENTROIDS.length)], 0.8);
  const filterExpr = { field: { prop: "label" as const, labelset: "topic", label: "ten" } };
  const langs = s.search.languages(store);
  // The raw calls open the table themselves: kbox's store hands out no table handle.
  const storageOptions = s3 && {
    aws_endpoint: s3.endpoint,
    allow_http: "true",
    aws_access_key_id: s3.access.accessKeyId,
    aws_secret_access_key: s3.access.secretAccessKey,
    aws_region: s3.access.region,
  };
  const db = await (s3
    ? lancedb.connect(`s3://bench/find/kbs/${kb.uuid}/lance`, { storageOptions })
    : lancedb.connect(join(store.dir, "lance")));
  const table = await db.openTable("paragraphs");
  await table.checkout(await store.paragraphs.readVersion());
  // The columns kbox reads for a result, so the comparison is like for like.
  const cols = HIT_COLUMNS;
  const raw = {
    keyword: async (q: string, where?: string) => {
      const b = buildKeyword(parseQuery(q), langs);
      let x = table
        .query()
        .fullTextSearch(b.query as never)
        .select([...cols, "_score"])
        .limit(21);
      if (where) x = x.where(where);
      return x.toArray();
    },
    semantic: async (v: number[], where?: string) => {
      let x = table
        .query()
        .nearestTo(v)
        .column("vec_bench")
        .distanceType("cosine")
        .select([...cols, "_distance"])
        .limit(21);
      const ann = m.annFor("bench");
      x = ann.indexed ? x.nprobes(ann.nprobes).refineFactor(ann.refineFactor) : x.bypassVectorIndex();
      if (where) x = x.where(where);
      return x.toArray();
    },
  };
  const labelled = [...store.resources.values()].filter((r) => r.usermetadata).map((r) => `'${r.id}'`);
  const rawFilter = `rid IN (${labelled.join(", ")})`;
  const find = (body: Record<string, unknown>) => s.search.find(kb.uuid, { top_k: 20, reranker: "noop", ...body });
  const results: [string, number[], number[]][] = [];
  const both = () => ({ q: words(), v: qv() });
  results.push([
    "keyword",
    ...(await timePair(
      words,
      (q) => find({ query: q, features: ["keyword"] }),
      (q) => raw.keyword(q),
    )),
  ]);
  results.push([
    "semantic",
    ...(await timePair(
      qv,
      (v) => find({ vector: v, features: ["semantic"] }),
      (v) => raw.semantic(v),
    )),
  ]);
  results.push([
    "hybrid",
    ...(await timePair(
      both,
      (x) => find({ query: x.q, vector: x.v }),
      (x) => Promise.all([raw.keyword(x.q), raw.semantic(x.v)]),
    )),
  ]);
  results.push([
    "hybrid+filter",
    ...(await timePair(
      both,
      (x) => find({ query: x.q, vector: x.v, filter_expression: filterExpr }),
      (x) => Promise.all([raw.keyword(x.q, rawFilter), raw.semantic(x.v, rawFilter)]),
    )),
  ]);
  // ANN recall@20 against exact search.
  let recall = Number.NaN;
  if (m.annFor("bench").indexed) {
    let hit = 0;
    for (let i = 0; i < 20; i++) {
      const v = qv();
      const exact = new Set(
        (
          await table
            .query()
            .nearestTo(v)
            .column("vec_bench")
            .distanceType("cosine")
            .bypassVectorIndex()
            .select(["id"])
            .limit(20)
            .toArray()
        ).map((r) => r.id),
      );
      const ann = await raw.semantic(v);
      hit += ann.slice(0, 20).filter((r) => exact.has(r.id)).length;
    }
    recall = hit / 400;
  }
  // The same recall under the label filter: kbox's filtered semantic top 20 against exact search
  // under the same filter (a large resource set is applied to the hits, see daemon/search/prefilter.ts).
  let filteredRecall = Number.NaN;
  if (m.annFor("bench").indexed) {
    let hit = 0;
    for (let i = 0; i < 20; i++) {
      const v = qv();
      const exact = await table
        .query()
        .nearestTo(v)
        .column("vec_bench")
        .distanceType("cosine")
        .bypassVectorIndex()
        .where(rawFilter)
        .select(["id"])
        .limit(20)
        .toArray();
      const got = new Set((await find({ vector: v, features: ["semantic"], filter_expression: filterExpr })).best_matches);
      hit += exact.filter((r) => got.has(r.id as string)).length;
    }
    filteredRecall = hit / 400;
  }
  console.log(
    `bench/find: ${N} paragraphs (${R} resources), ${DIM}-d vectors, ${Q} queries each, data ${s3 ? "on a local S3-compatible server (s3rver)" : "on local disk"}`,
  );
  console.log(
    `${reuse ? `reused ${home} (load not timed)` : `load ${(loadMs / 1000).toFixed(1)} s`}; index build/optimize ${(indexMs / 1000).toFixed(1)} s (${m.log.map((l) => `${l.what} ${(l.ms / 1000).toFixed(1)} s`).join(", ") || "nothing to do"})`,
  );
  const ann = m.annFor("bench");
  const annType = (await table.listIndices()).find((i) => i.columns[0] === "vec_bench")?.indexType;
  table.close();
  console.log(
    `vector search: ${ann.indexed ? `${annType}, nprobes ${ann.nprobes}, refine x${ann.refineFactor}: recall@20 vs exact ${recall.toFixed(3)}, under the label filter ${filteredRecall.toFixed(3)}` : "exact (below the ANN threshold)"}`,
  );
  console.log(["query", "kbox p50", "kbox p95", "lancedb p50", "lancedb p95", "overhead"].join("\t"));
  for (const [name, k, r] of results) {
    console.log(
      [
        name,
        pct(k, 0.5).toFixed(1),
        pct(k, 0.95).toFixed(1),
        pct(r, 0.5).toFixed(1),
        pct(r, 0.95).toFixed(1),
        `${(pct(k, 0.5) / pct(r, 0.5)).toFixed(2)}x`,
      ].join("\t"),
    );
  }
  // The filter's cost against its baseline under the same load: hybrid and hybrid + filter on the same
  // inputs, interleaved (which goes first alternates), since the machine may be shared.
  const paired = await timePair(
    both,
    (x) => find({ query: x.q, vector: x.v, filter_expression: filterExpr }),
    (x) => find({ query: x.q, vector: x.v }),
  );
  const lf = pct(paired[0], 0.5);
  const lh = pct(paired[1], 0.5);
  console.log(
    `hybrid + filter ${lf.toFixed(1)} ms vs hybrid ${lh.toFixed(1)} ms p50, interleaved: ${(lf / lh).toFixed(2)}x; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (at start ${load0})`,
  );
  // What recording the activity log adds to a find over the socket (keyword, so no embedder is needed).
  const client = new KboxClient({ kind: "unix", socket: daemon.paths.socket });
  await activityOverhead(
    "find over the socket",
    s.settings.activity,
    () => rawFind(client, kb.uuid, { query: `${zipf()} ${zipf()}`, features: ["keyword"], top_k: 20 }),
    Q * 4,
  );
  // What a refresh costs after a burst of new writes.
  const t2 = performance.now();
  await store.paragraphs.compact(true);
  console.log(`optimize after load (nothing new): ${((performance.now() - t2) / 1000).toFixed(2)} s`);
} finally {
  await daemon.stop();
  await s3?.close();
  if (!keep) rmSync(home, { recursive: true, force: true });
}
