/**
 * `kbox add <folder> --wait` as a user runs it (issue 17): the compiled CLI (dist/; `--tsx` runs the
 * sources instead) starts kboxd itself on a fresh KBOX_HOME, adds a folder of N small Markdown notes
 * (bench/notes.ts, the folder of bench/sync.ts) and waits until all are processed. Prints the time to
 * all findable, files/s, the daemon's CPU seconds meanwhile (all its threads, then by kind of thread:
 * its own, V8's and libuv's, LanceDB's), the peak resident
 * memory of the daemon and its extraction workers (sampled every 100 ms from /proc), the time of 200
 * keyword finds made right after (each note found by its own token, while the box settles) and, from the same
 * run, recoll's full index of the same folder as a ratio (bench/recoll.ts; installed from Debian when
 * missing and possible).
 *   npx tsx bench/add.ts [--files 10000] [--watch] [--no-build] [--tsx] [--no-recoll] [--env NAME=VALUE ...] [--cli dist/bin/kbox.js]
 * `--cli` runs another build of the CLI (an older commit compiled elsewhere, for a before/after pair).
 * `--watch` measures `kbox sync add <folder>` instead (the folder synced and watched, as bench/sync.ts
 * does in its own process): the time until every note is PROCESSED, from the processing status.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as findApi from "../src/api/find.js";
import * as kbs from "../src/api/kbs.js";
import { kboxPaths } from "../src/api/paths.js";
import * as processing from "../src/api/processing.js";
import { KboxClient } from "../src/client/client.js";
import { benchEnv, envOf, runCli } from "./kbox-cli.js";
import { noteToken, writeNotes } from "./notes.js";
import { childPids, cpuSeconds, rssBytes, threadSeconds, threadsBetween } from "./proc.js";
import { diskBytes, ensureRecoll, recollConfig, recollCount, recollIndex } from "./recoll.js";
import { quantile } from "./stats.js";

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "10000" },
    env: { type: "string", multiple: true, default: [] },
    "no-build": { type: "boolean", default: false },
    tsx: { type: "boolean", default: false },
    "no-recoll": { type: "boolean", default: false },
    watch: { type: "boolean", default: false },
    cli: { type: "string" },
  },
});
const N = Number(args.files);
const ROOT = join(import.meta.dirname, "..");
const say = (s: string) => process.stderr.write(`${s}\n`);
const MiB = 2 ** 20;
const mib = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
const ratio = (kbox: number, recoll: number | undefined) => (recoll ? ` (${(kbox / recoll).toFixed(1)}x recoll)` : "");

/** Run the CLI with `env`; resolves with its exit code and stdout. */
function kbox(env: NodeJS.ProcessEnv, argv: string[]): Promise<{ code: number; stdout: string }> {
  return runCli(
    args.tsx ? ["--import", "tsx", join(ROOT, "bin/kbox.ts")] : [args.cli ?? join(ROOT, "dist/bin/kbox.js")],
    env,
    argv,
  );
}

/** recoll's full index of the folder: seconds and peak memory, or undefined without recoll. */
async function recollRun(folder: string): Promise<{ seconds: number; peak: number; disk: number } | undefined> {
  if (args["no-recoll"] || !ensureRecoll(say)) return undefined;
  const confdir = recollConfig(folder);
  try {
    const run = await recollIndex(confdir);
    if (recollCount(confdir, noteToken(N - 1)) !== 1) throw new Error("recoll does not find the last note");
    return { seconds: run.seconds, peak: run.peakRssBytes, disk: diskBytes(confdir) };
  } finally {
    rmSync(confdir, { recursive: true, force: true });
  }
}

/**
 * Every `step`-th note is found by its own token as exactly one resource: the count of those that are
 * not, and each find's time (they start right after the run, while the box settles).
 */
async function unfindable(socket: string, step: number): Promise<{ missing: number; ms: number[] }> {
  const client = new KboxClient({ kind: "unix", socket });
  const kbid = (await client.call(kbs.getKbBySlug, { params: { slug: "bench" } })).uuid;
  let missing = 0;
  const ms: number[] = [];
  for (let i = N - 1; i >= 0; i -= step) {
    const t0 = performance.now();
    const r = await client.call(findApi.find, {
      params: { kbid },
      body: { query: noteToken(i), features: ["keyword"], top_k: 5 },
    });
    ms.push(performance.now() - t0);
    if (Object.keys(r.resources).length !== 1) missing++;
  }
  return { missing, ms };
}

/** `kbox sync add <folder>`, then the processing status until every note is PROCESSED; its totals as JSON. */
async function watched(env: NodeJS.ProcessEnv, folder: string, socket: string): Promise<{ code: number; stdout: string }> {
  const added = await kbox(env, ["sync", "add", folder, "--kb", "bench", "--name", "notes", "--quiet"]);
  if (added.code !== 0) return added;
  const client = new KboxClient({ kind: "unix", socket });
  const kbid = (await client.call(kbs.getKbBySlug, { params: { slug: "bench" } })).uuid;
  for (;;) {
    const s = await client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1 } });
    const done = Object.entries(s.totals).reduce((n, [st, k]) => (st === "PENDING" ? n : n + k), 0);
    if (done >= N && !s.queue.pending && !s.queue.running) return { code: 0, stdout: JSON.stringify(s.totals) };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  if (!args.tsx && !args.cli && (!args["no-build"] || !existsSync(join(ROOT, "dist/bin/kbox.js")))) {
    say("compiling (npm run build)...");
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-add-"));
  const folder = mkdtempSync(join(tmpdir(), "kbox-bench-notes-"));
  const bytes = writeNotes(folder, N);
  const recoll = await recollRun(folder);
  const env = benchEnv(home, envOf(args.env));
  const paths = kboxPaths(env);
  try {
    if ((await kbox(env, ["kb", "create", "bench"])).code !== 0) throw new Error("kbox kb create failed");
    const pid = Number(readFileSync(paths.pid, "utf8").trim());
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid) + childPids(pid).reduce((n, k) => n + rssBytes(k), 0));
    }, 100);
    const cpu0 = cpuSeconds(pid);
    const threads0 = threadSeconds(pid);
    const t0 = performance.now();
    const add = args.watch
      ? await watched(env, folder, paths.socket)
      : await kbox(env, ["add", folder, "--kb", "bench", "--wait", "--quiet", "--json"]);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(pid) - cpu0;
    const threads = threadsBetween(threads0, threadSeconds(pid));
    clearInterval(timer);
    const statuses = new Map<string, number>();
    if (args.watch) for (const [st, n] of Object.entries(JSON.parse(add.stdout) as Record<string, number>)) statuses.set(st, n);
    else
      for (const r of (JSON.parse(add.stdout) as { results: { status: string }[] }).results)
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    const { missing, ms: findMs } = await unfindable(paths.socket, Math.max(1, Math.floor(N / 200)));
    const disk = diskBytes(join(home, "data"));
    await kbox(env, ["daemon", "stop"]);
    const rows: [string, string][] = [
      ["source text", `${N} Markdown notes, ${(bytes / MiB).toFixed(1)} MiB`],
      [
        args.watch ? "kbox sync add (watch): all processed" : "kbox add --wait: all processed",
        `${seconds.toFixed(1)} s = ${(N / seconds).toFixed(0)} files/s${ratio(seconds, recoll?.seconds)}; exit ${add.code}; ${[
          ...statuses,
        ]
          .map(([s, n]) => `${n} ${s}`)
          .join(", ")}; ${missing} of ${Math.ceil(N / Math.max(1, Math.floor(N / 200)))} sampled tokens not found once`,
      ],
      [
        "  those finds, right after (keyword)",
        `${(findMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all; p50 ${quantile(findMs, 0.5).toFixed(0)} ms, p95 ${quantile(findMs, 0.95).toFixed(0)} ms, max ${Math.max(...findMs).toFixed(0)} ms`,
      ],
      ["  daemon CPU meanwhile (all its threads)", `${cpu.toFixed(1)} s = ${((100 * cpu) / seconds).toFixed(0)} % of one core`],
      ["    by thread", threads],
      ["  peak RSS, daemon + workers", `${mib(peak)}${ratio(peak, recoll?.peak)}`],
      ["  disk under KBOX_HOME/data just after", `${mib(disk)}${ratio(disk, recoll?.disk)}`],
    ];
    if (recoll)
      rows.push([
        "recoll (recollindex, full)",
        `${recoll.seconds.toFixed(1)} s, peak ${mib(recoll.peak)}, index ${mib(recoll.disk)}`,
      ]);
    else rows.push(["recoll", "not run"]);
    const w = Math.max(...rows.map((r) => r[0].length));
    console.log(`kbox ${args.watch ? "sync" : "add"} benchmark, ${N} files (${args.tsx ? "tsx" : (args.cli ?? "compiled")} CLI)`);
    for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
  } finally {
    await kbox(env, ["daemon", "stop"]).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
