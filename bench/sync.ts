/**
 * Folder sync figures: initial sync of N small Markdown files (time until all are findable, peak RSS of
 * the daemon and its workers, disk under KBOX_HOME right after and once old versions are cleaned up;
 * embedding time reported separately when a model is installed), save-to-findable latency over 20 saves,
 * CPU and RSS of an idle watch over the N files, and the counters of a re-sync with no changes (which
 * must do no ingestion work). recoll (installed from Debian if missing, see recoll.ts) indexes the same
 * folder first, and each kbox figure is printed next to recoll's as a ratio.
 *   npx tsx bench/sync.ts [--files 10000] [--saves 20] [--idle 10] [--settle 1] [--entities off] [--keep]
 * Uses the model cache of KBOX_HOME (or the XDG data dir) when it holds an embedder; otherwise the
 * knowledge box is keyword-only and no automatic model download is attempted.
 * The daemon runs in this process, so the bench runs itself again with the allocator settings and node
 * flags the CLI gives the daemon it starts (MALLOC_ARENA_MAX=2, 32 MB semi-spaces: src/client/connect.ts),
 * unless they are set, and applies kboxd's heap setting (daemon/lifecycle/heap.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as lancedb from "@lancedb/lancedb";
import { tuneHeap } from "../daemon/lifecycle/heap.js";
import { readInstalled } from "../daemon/models/manifest.js";
import type { Embedder } from "../daemon/models/types.js";
import { startDaemon } from "../daemon/server.js";
import { VERSION_RETENTION_MS } from "../daemon/store/settle.js";
import * as findApi from "../src/api/find.js";
import * as kbs from "../src/api/kbs.js";
import { kboxPaths } from "../src/api/paths.js";
import * as sync from "../src/api/sync.js";
import { hostDirs } from "../src/cli/paths.js";
import { KboxClient } from "../src/client/client.js";
import { daemonNodeFlags, GLIBC_MALLOC_ENV } from "../src/client/connect.js";
import { noteRel, noteText, writeNotes } from "./notes.js";
import { diskBytes, diskParts, ensureRecoll, recollConfig, recollCount, recollIndex } from "./recoll.js";
import { quantile } from "./stats.js";

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "10000" },
    saves: { type: "string", default: "20" },
    idle: { type: "string", default: "10" },
    /** 0: skip waiting for the cleanup of old versions (2 minutes) before measuring the disk again. */
    settle: { type: "string", default: "1" },
    /** off: the daemon runs with KBOX_ENTITIES=false (indexing cheap, so the sync pass shows). */
    entities: { type: "string", default: "on" },
    /** Leave KBOX_HOME and the folder in place (their paths are printed) to look at them. */
    keep: { type: "boolean", default: false },
  },
});
const N = Number(args.files);
const SAVES = Number(args.saves);
const IDLE_S = Number(args.idle);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rel = noteRel;
const text = noteText;

const MiB = 2 ** 20;
const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
/** kbox's figure over recoll's, when recoll ran. */
const ratio = (kbox: number, recoll: number | undefined) => (recoll ? ` (${(kbox / recoll).toFixed(2)}x recoll)` : "");

interface RecollFigures {
  seconds: number;
  peak: number;
  disk: number;
  saveMs: number[];
}

/** recoll on the same folder: full index, its peak memory and index size, then incremental index after saves. */
async function recollRun(root: string): Promise<RecollFigures | undefined> {
  if (!ensureRecoll((m) => console.error(m))) return undefined;
  const confdir = recollConfig(root);
  try {
    const full = await recollIndex(confdir);
    if (recollCount(confdir, `tok${N - 1}x`) !== 1) throw new Error("recoll does not find the last file");
    const disk = diskBytes(confdir);
    const saveMs: number[] = [];
    for (let k = 0; k < Math.min(SAVES, 5); k++) {
      const i = (k * 104_729) % N;
      const word = `rsaved${k}q${Date.now().toString(36)}`;
      const t0 = performance.now();
      writeFileSync(join(root, rel(i)), text(i, word));
      await recollIndex(confdir);
      if (recollCount(confdir, word) !== 1) throw new Error(`recoll does not find save ${k}`);
      saveMs.push(performance.now() - t0);
      writeFileSync(join(root, rel(i)), text(i)); // back as it was, for kbox
    }
    return { seconds: full.seconds, peak: full.peakRssBytes, disk, saveMs };
  } finally {
    rmSync(confdir, { recursive: true, force: true });
  }
}

/** Reuse the user's installed models (read-only) so ingestion embeds as it would for real (none: keyword only, no automatic pull). */
function linkModels(home: string): string | undefined {
  const cache = join(kboxPaths(process.env, hostDirs()).data, "models");
  const embedder = readInstalled(cache).find((m) => m.kind !== "reranker");
  if (!embedder) return undefined;
  mkdirSync(join(home, "data"), { recursive: true });
  symlinkSync(cache, join(home, "data", "models"));
  return embedder.id;
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-sync-"));
  const root = mkdtempSync(join(tmpdir(), "kbox-bench-tree-"));
  const model = linkModels(home);
  let t = performance.now();
  const textBytes = writeNotes(root, N);
  console.error(
    `wrote ${N} files (${mib(textBytes)}) in ${((performance.now() - t) / 1000).toFixed(1)}s; model: ${model ?? "none (keyword only)"}`,
  );
  const recoll = await recollRun(root);
  // The folder settles (no file younger than the sync's settle window) before kbox meets it.
  await sleep(1500);
  const daemon = await startDaemon({
    env: {
      // The daemon's settings given to the bench (KBOX_FIELD_THREADS=0, KBOX_INGEST_CONCURRENCY...) apply.
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("KBOX_") && k !== "KBOX_HOME")),
      KBOX_HOME: home,
      ...(model ? {} : { KBOX_MODELS_AUTOPULL: "0" }),
      ...(args.entities === "off" ? { KBOX_ENTITIES: "false" } : {}),
    },
  });
  const s = daemon.services;
  const client = new KboxClient({ kind: "unix", socket: daemon.paths.socket });
  const rows: [string, string][] = [];
  try {
    const kbid = (await client.call(kbs.createKb, { body: { slug: "bench" } })).uuid;
    const embedMs = await timeEmbedding(s.models.embedder.bind(s.models));
    const conn = await client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
    const workers = () => s.processing.workers().rss_bytes;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss + workers());
    }, 100);
    const commits = await countCommits();
    t = performance.now();
    const cpuAtStart = process.cpuUsage();
    const config = await client.call(sync.addConfig, {
      params: { kbid },
      body: { name: "bench", external_connection_id: conn.id, sync_root_path: root },
    });
    const first = await settle(client, kbid, config.id);
    const syncS = (performance.now() - t) / 1000;
    const passCpu = process.cpuUsage(cpuAtStart);
    console.error(
      `sync pass done: ${N} resources created in ${syncS.toFixed(1)}s, CPU ${((passCpu.user + passCpu.system) / 1e6).toFixed(1)}s; commits ${[
        ...commits(),
      ]
        .filter(([k]) => /^(resources|fields|sync_logs|paragraphs)\.add/.test(k))
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    await s.processing.idle();
    const totalS = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const last = await client.call(findApi.find, {
      params: { kbid },
      body: { query: `tok${N - 1}x`, features: ["keyword"], top_k: 1 },
    });
    if (!last.best_matches.length) throw new Error("the last file is not findable");
    rows.push([
      "source text",
      `${N} Markdown files, ${mib(textBytes)}${recoll ? "; recoll (recollindex) indexes the same folder first" : "; recoll not available"}`,
    ]);
    rows.push([
      "initial sync: resources created",
      `${N} files in ${syncS.toFixed(1)}s = ${(N / syncS).toFixed(0)} files/s (${first.status}, ${first.stats.failed} failed)`,
    ]);
    rows.push([
      "initial sync: all findable",
      `${totalS.toFixed(1)}s = ${(N / totalS).toFixed(0)} files/s, ${s.processing.totals.paragraphs} paragraphs${ratio(totalS, recoll?.seconds)}`,
    ]);
    const byTable = [...commits()].sort((a, b) => b[1] - a[1]);
    rows.push(["  LanceDB commits (table.kind)", byTable.map(([k, v]) => `${k} ${v}`).join(", ")]);
    if (recoll) rows.push(["  recoll: all findable", `${recoll.seconds.toFixed(1)}s (recollindex, full)`]);
    rows.push(["  peak RSS (daemon + bench, + workers)", `${mib(peak)}${ratio(peak, recoll?.peak)}`]);
    if (recoll) rows.push(["  recoll: peak RSS", mib(recoll.peak)]);
    const diskNow = diskBytes(home);
    rows.push(["  disk under KBOX_HOME, just after", `${mib(diskNow)}${ratio(diskNow, recoll?.disk)}`]);
    if (args.settle !== "0") {
      await sleep(VERSION_RETENTION_MS + 8000); // old versions are cleaned once past the retention
      const settled = diskBytes(home);
      rows.push([
        "  disk under KBOX_HOME, settled",
        `${mib(settled)} = ${(settled / textBytes).toFixed(1)}x the text${ratio(settled, recoll?.disk)}`,
      ]);
    }
    rows.push(["    of which", parts(home)]);
    if (recoll) rows.push(["  recoll: index size", mib(recoll.disk)]);
    rows.push([
      "  of which embedding",
      model
        ? `${(embedMs() / 1000).toFixed(1)}s for ${s.processing.totals.embedded} texts (${model})`
        : "n/a: no model installed",
    ]);

    await sleep(2000); // let the watcher's initial work and the ingest reconcile pass finish
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const rss = [process.memoryUsage().rss];
    for (let i = 0; i < IDLE_S; i++) {
      await sleep(1000);
      rss.push(process.memoryUsage().rss);
    }
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - wall0;
    rows.push([
      `idle watch over ${N} files (${IDLE_S}s)`,
      `CPU ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(2)}% of one core, RSS ${(Math.max(...rss) / 2 ** 20).toFixed(0)} MiB (daemon + bench, one process)`,
    ]);

    const before = { ...s.processing.totals };
    const again = await client.call(sync.triggerSync, { params: { kbid, config_id: config.id }, body: {} });
    t = performance.now();
    const done = await settle(client, kbid, config.id, again.id);
    await s.processing.idle();
    const work = Object.entries(s.processing.totals)
      .map(([k, v]) => `${k} +${v - before[k as keyof typeof before]}`)
      .join(", ");
    rows.push([
      "re-sync, no changes",
      `${((performance.now() - t) / 1000).toFixed(1)}s; job ${JSON.stringify(done.stats)}; ingestion ${work}`,
    ]);

    const lat = await saveLatencies(client, kbid, root);
    // --saves 0 skips them (a run for the initial sync alone).
    if (lat.length)
      rows.push([
        `save -> findable (${SAVES} saves)`,
        `p50 ${quantile(lat, 0.5).toFixed(0)} ms, p95 ${quantile(lat, 0.95).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms${ratio(
          quantile(lat, 0.5),
          recoll && quantile(recoll.saveMs, 0.5),
        )}`,
      ]);
    if (recoll?.saveMs.length)
      rows.push([
        `  recoll: save -> findable (${recoll.saveMs.length} saves)`,
        `p50 ${quantile(recoll.saveMs, 0.5).toFixed(0)} ms (incremental recollindex, then recollq)`,
      ]);
  } finally {
    await daemon.stop();
    if (args.keep) console.log(`kept KBOX_HOME ${home} and the folder ${root}`);
    else {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(`kbox sync benchmark, ${N} files`);
  for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
}

/** LanceDB commits (add, delete, merge-insert, optimize) per table and kind, counted from now on. */
async function countCommits(): Promise<() => Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "kbox-bench-probe-"));
  const probe = await (await lancedb.connect(dir)).createTable("probe", [{ x: 1 }]);
  rmSync(dir, { recursive: true, force: true });
  const proto = Object.getPrototypeOf(probe) as Record<string, (...a: unknown[]) => unknown>;
  const counts = new Map<string, number>();
  for (const kind of ["add", "delete", "mergeInsert", "optimize"]) {
    const orig = proto[kind];
    proto[kind] = function (this: { name: string }, ...a: unknown[]) {
      const name = this.name.replace(/^.*[/]/, "");
      counts.set(`${name}.${kind}`, (counts.get(`${name}.${kind}`) ?? 0) + 1);
      return orig.apply(this, a);
    };
  }
  return () => counts;
}

/** Wrap the default embedder's embed() to add up the time spent in it; returns a reader. */
async function timeEmbedding(get: () => Promise<Embedder | undefined>): Promise<() => number> {
  let ms = 0;
  const e = await get().catch(() => undefined);
  if (e) {
    const embed = e.embed.bind(e);
    e.embed = async (...a) => {
      const t0 = performance.now();
      try {
        return await embed(...a);
      } finally {
        ms += performance.now() - t0;
      }
    };
  }
  return () => ms;
}

/** Wait for a job (the config's latest when none is named) to finish. */
async function settle(client: KboxClient, kbid: string, configId: string, jobId?: string): Promise<sync.SyncJob> {
  for (;;) {
    const j = jobId
      ? await client.call(sync.getJob, { params: { kbid, job_id: jobId } })
      : (await client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 1 } })).items[0];
    if (j && (j.status === "completed" || j.status === "failed" || j.status === "cancelled")) return j;
    await sleep(100);
  }
}

/** Save a file with a new unique word, then poll find until it answers with it; ms per save. */
async function saveLatencies(client: KboxClient, kbid: string, root: string): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < SAVES; k++) {
    const i = (k * 7919) % N;
    const word = `saved${k}q${Date.now().toString(36)}`;
    const t0 = performance.now();
    writeFileSync(join(root, rel(i)), text(i, word));
    for (;;) {
      const r = await client.call(findApi.find, { params: { kbid }, body: { query: word, features: ["keyword"], top_k: 1 } });
      if (r.best_matches.length) break;
      if (performance.now() - t0 > 60_000) throw new Error(`save ${k} not findable after 60 s`);
      await sleep(20);
    }
    out.push(performance.now() - t0);
    await sleep(300);
  }
  return out;
}

// The daemon in this process runs with the malloc settings and node flags `kbox` gives kboxd
// (src/client/connect.ts) and kboxd's heap setting (daemon/lifecycle/heap.ts).
const flags = daemonNodeFlags(process.env).filter((f) => !process.execArgv.includes(f));
if (flags.length || Object.keys(GLIBC_MALLOC_ENV).some((k) => process.env[k] === undefined)) {
  const again = spawnSync(process.execPath, [...flags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...GLIBC_MALLOC_ENV, ...process.env },
  });
  process.exitCode = again.status ?? 1;
} else {
  tuneHeap();
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

/** The disk of a KBOX_HOME by table and blob folder, those above 1 % of it. */
function parts(home: string): string {
  const all = diskParts(home);
  const total = all.reduce((n, [, b]) => n + b, 0);
  return all
    .filter(([, b]) => b >= total / 100)
    .map(([k, b]) => `${k} ${mib(b)}`)
    .join(", ");
}
