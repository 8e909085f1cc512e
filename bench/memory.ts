/**
 * Peak memory of `kbox add <folder> --wait` as a user runs it: the compiled CLI (dist/) starts kboxd
 * itself (so the daemon's allocator and malloc settings are the launcher's), adds a folder of N small
 * Markdown notes (a heading and three paragraphs, as bench/sync.ts writes them) and waits until all are
 * processed, while this process samples the resident memory of the daemon and its extraction workers
 * every 100 ms from /proc.
 *   npx tsx bench/memory.ts [--files 2000] [--env NAME=VALUE ...] [--no-build]
 * `--env KBOX_ALLOCATOR=system` runs the daemon as on a machine without libjemalloc2; further `--env`
 * values (MALLOC_ARENA_MAX=..., MALLOC_CONF=...) go to the CLI, hence to the daemon it starts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { kboxPaths } from "../src/api/paths.js";
import { benchEnv, envOf, runCli } from "./kbox-cli.js";
import { writeNotes } from "./notes.js";
import { childPids, rssBytes } from "./proc.js";

/** Resident MB of a process, 0 once it has gone. */
const rss = (pid: number) => rssBytes(pid) / 2 ** 20;

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "2000" },
    env: { type: "string", multiple: true, default: [] },
    "no-build": { type: "boolean", default: false },
  },
});
const N = Number(args.files);
const ROOT = join(import.meta.dirname, "..");
const say = (s: string) => process.stderr.write(`${s}\n`);

/** Run the compiled CLI with `env`; resolves with its exit code. */
async function kbox(env: NodeJS.ProcessEnv, argv: string[]): Promise<number> {
  return (await runCli([join(ROOT, "dist/bin/kbox.js")], env, argv)).code;
}

async function main(): Promise<void> {
  if (!args["no-build"] || !existsSync(join(ROOT, "dist/bin/kbox.js"))) {
    say("compiling (npm run build)...");
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-memory-"));
  const folder = join(home, "notes");
  writeNotes(folder, N);
  const extra = envOf(args.env);
  const env = benchEnv(home, extra);
  const paths = kboxPaths(env);
  try {
    if ((await kbox(env, ["kb", "create", "bench"])) !== 0) throw new Error("kbox kb create failed");
    const pid = Number(readFileSync(paths.pid, "utf8").trim());
    const allocator = /LD_PRELOAD=[^\0]*jemalloc/.test(readFileSync(`/proc/${pid}/environ`, "utf8")) ? "jemalloc" : "glibc";
    const idle = rss(pid);
    let peak = { total: 0, daemon: 0, workers: 0 };
    const timer = setInterval(() => {
      const daemon = rss(pid);
      const workers = childPids(pid).reduce((n, k) => n + rss(k), 0);
      if (daemon + workers > peak.total) peak = { total: daemon + workers, daemon, workers };
    }, 100);
    const t0 = performance.now();
    const code = await kbox(env, ["add", folder, "--kb", "bench", "--wait", "--quiet"]);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(timer);
    const after = rss(pid);
    await kbox(env, ["daemon", "stop"]);
    const set = Object.entries(extra)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    console.log(
      [
        `${N} notes`,
        `daemon on ${allocator}${set ? ` (${set})` : ""}`,
        `add exit ${code} in ${seconds.toFixed(1)} s`,
        `peak ${peak.total.toFixed(0)} MB (daemon ${peak.daemon.toFixed(0)} + workers ${peak.workers.toFixed(0)})`,
        `daemon idle before ${idle.toFixed(0)} MB, after ${after.toFixed(0)} MB`,
      ].join("\t"),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
