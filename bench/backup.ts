/**
 * Backup and restore throughput on a knowledge box of N paragraphs (default 100k, 384-dim vectors),
 * and the longest pause a concurrent find sees while a backup runs.
 *   npx tsx bench/backup.ts [paragraphs] [dim]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDaemon } from "../daemon/server.js";
import type { ParagraphRow } from "../daemon/store/paragraphs.js";
import * as findApi from "../src/api/find.js";
import * as kbs from "../src/api/kbs.js";
import * as res from "../src/api/resources.js";
import { KboxClient } from "../src/client/client.js";

const N = Number(process.argv[2] ?? 100_000);
const DIM = Number(process.argv[3] ?? 384);
const PER_RESOURCE = 100;
const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(" ");

function paragraph(rid: string, i: number, seed: number): ParagraphRow {
  const text = Array.from({ length: 40 }, (_, k) => WORDS[(seed * 7 + k * 13 + i) % WORDS.length]).join(" ") + ` item${seed}`;
  const vec = new Float32Array(DIM);
  for (let k = 0; k < DIM; k++) vec[k] = Math.sin(seed * 0.37 + k);
  return {
    ...{ id: `${rid}/t/body/${i * 1000}-${i * 1000 + text.length}`, rid, field: "t/body", field_type: "text", split: "" },
    ...{ start: i * 1000, end: i * 1000 + text.length, page: 0, idx: i, kind: "TEXT", is_table: false, labels: [], facets: [] },
    ...{
      text,
      lang: "en",
      path: "",
      created: 0,
      modified: 0,
      hidden: false,
      groups: [],
      hash: `${seed}`,
      vectors: { bench: vec },
    },
  };
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-"));
  const daemon = await startDaemon({ env: { KBOX_HOME: home } });
  const s = daemon.services;
  const client = new KboxClient({ kind: "unix", socket: daemon.paths.socket });
  try {
    const kbid = (await client.call(kbs.createKb, { body: { slug: "bench" } })).uuid;
    const store = await s.store.kb(kbid);
    await store.paragraphs.ensureVectorset("bench", DIM);
    let t = Date.now();
    // Many fields in flight at once: the paragraph write queue merges them into few commits.
    const resources = Math.ceil(N / PER_RESOURCE);
    for (let r0 = 0; r0 < resources; r0 += 50) {
      const batch = Array.from({ length: Math.min(50, resources - r0) }, (_, k) => r0 + k);
      const rids = await Promise.all(
        batch.map(async (r) => (await client.call(res.createResource, { params: { kbid }, body: { title: `doc ${r}` } })).uuid),
      );
      await Promise.all(
        batch.map((r, k) => {
          const rows = Array.from({ length: Math.min(PER_RESOURCE, N - r * PER_RESOURCE) }, (_, i) =>
            paragraph(rids[k], i, r * PER_RESOURCE + i),
          );
          return store.paragraphs.replaceField(rids[k], "t/body", rows);
        }),
      );
    }
    await store.idle();
    console.log(`wrote ${N} paragraphs (${DIM}-dim) in ${((Date.now() - t) / 1000).toFixed(1)}s`);

    // Baseline find latency, then the same queries while a backup runs.
    const query = async () => {
      const q0 = performance.now();
      await client.call(findApi.find, {
        params: { kbid },
        body: { query: `item${Math.floor(Math.random() * N)}`, features: ["keyword"], top_k: 10 },
      });
      return performance.now() - q0;
    };
    await query(); // warm-up (index build, caches)
    const base: number[] = [];
    for (let i = 0; i < 20; i++) base.push(await query());

    t = Date.now();
    const started = await s.backups.create(kbid);
    const pinMs = Date.now() - t;
    const during: number[] = [];
    let running = true;
    const prober = (async () => {
      while (running) during.push(await query());
    })();
    const done = await s.backups.wait(started.id);
    const backupSec = (Date.now() - t) / 1000;
    running = false;
    await prober;
    if (done.status !== "finished") throw new Error(`backup failed: ${done.error}`);

    t = Date.now();
    const restored = await s.backups.restore(done.id, "bench-restored", "Restored");
    const restoreSec = (Date.now() - t) / 1000;
    const count = await (await s.store.kb(restored.uuid)).paragraphs.count();
    if (count !== done.paragraphs) throw new Error(`restored ${count} paragraphs, expected ${done.paragraphs}`);

    const size = mb(done.size);
    console.log(`snapshot (pin + links):  ${pinMs} ms`);
    console.log(
      `backup:   ${backupSec.toFixed(2)}s  archive ${size.toFixed(1)} MiB  ${(size / backupSec).toFixed(1)} MiB/s  ${Math.round(done.paragraphs / backupSec)} paragraphs/s`,
    );
    console.log(
      `restore:  ${restoreSec.toFixed(2)}s  ${(size / restoreSec).toFixed(1)} MiB/s  ${Math.round(count / restoreSec)} paragraphs/s`,
    );
    const max = (xs: number[]) => Math.max(...xs).toFixed(1);
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
    console.log(`find latency idle:           p50 ${p50(base)} ms  max ${max(base)} ms (${base.length} queries)`);
    console.log(
      `find latency during backup:  p50 ${p50(during)} ms  max ${max(during)} ms (${during.length} queries) <- longest pause`,
    );
  } finally {
    await daemon.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
