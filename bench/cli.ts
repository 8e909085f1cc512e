/**
 * CLI start-up and round-trip times, hyperfine style: `npx tsx bench/cli.ts [runs]` (after `npm run build`).
 * Measures `kbox --version` and `kbox kb list --json` / `kbox find --json` against a warm daemon
 * (started once in a temp KBOX_HOME), each as a fresh `node dist/bin/kbox.js` process. Target: <= 150 ms wall.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const bin = join(root, "dist/bin/kbox.js");
const runs = Number(process.argv[2] ?? 20);
const TARGET_MS = 150;

if (!existsSync(bin)) {
  console.error("dist/bin/kbox.js is missing: run `npm run build` first");
  process.exit(1);
}
const home = mkdtempSync(join(tmpdir(), "kbox-bench-"));
const env = { ...process.env, KBOX_HOME: home, NO_COLOR: "1", KBOX_PROFILE: "", KBOX_URL: "" };

function once(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`kbox ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  return { mean, sd, min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
}

function bench(label: string, args: string[]): number {
  for (let i = 0; i < 3; i++) once(args); // warm-up: file cache, daemon tables
  const xs = Array.from({ length: runs }, () => once(args));
  const st = stats(xs);
  const ok = st.median <= TARGET_MS ? "within" : "over";
  console.log(`${label}\n  Time (mean ± σ):  ${st.mean.toFixed(1)} ms ± ${st.sd.toFixed(1)} ms   [${runs} runs]`);
  console.log(`  Range (min … median … max):  ${st.min.toFixed(1)} ms … ${st.median.toFixed(1)} ms … ${st.max.toFixed(1)} ms   (${ok} the ${TARGET_MS} ms target)\n`);
  return st.median;
}

const nodeOnly = stats(Array.from({ length: 5 }, () => {
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, ["-e", "0"]);
  return Number(process.hrtime.bigint() - t) / 1e6;
}));
console.log(`baseline: node -e 0 median ${nodeOnly.median.toFixed(1)} ms (machine load ${(await import("node:os")).loadavg()[0].toFixed(1)})\n`);

const daemon = spawn(process.execPath, [join(root, "dist/bin/kboxd.js")], { env, stdio: "ignore" });
try {
  // Any command starts the daemon when needed; this also creates data for the round trips.
  once(["kb", "create", "bench", "--use", "--quiet"]);
  once(["resource", "create", "--title", "Bench", "--text", "The quick brown fox jumps over the lazy dog.", "--quiet"]);
  bench("kbox --version", ["--version"]);
  bench("kbox kb list --json (warm daemon)", ["kb", "list", "--json"]);
  const help = spawnSync(process.execPath, [bin, "find", "--help"], { env });
  if (help.status === 0) bench("kbox find fox --json (warm daemon)", ["find", "fox", "--json"]);
} finally {
  spawnSync(process.execPath, [bin, "daemon", "stop", "--quiet"], { env });
  daemon.kill();
  rmSync(home, { recursive: true, force: true });
}
