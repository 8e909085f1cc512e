/**
 * CLI start-up and round-trip times: `npm run build && npx tsx bench/cli.ts [runs]` (default 15).
 *
 * Each run is a fresh `node dist/bin/kbox.js …` process, as users run it: `kbox --version`,
 * `kbox kb list --json`, `kbox find fox --json` and `kbox sync list --json` against a warm daemon (started once in a temp
 * KBOX_HOME, with one knowledge box and one resource). The commands are run in turn, round after
 * round, next to a bare `node -e 0`, so a change in machine load hits all of them alike. Prints the
 * median, min and max of each and its overhead over the node baseline. Target: find <= 150 ms wall.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const bin = join(root, "dist/bin/kbox.js");
const runs = Number(process.argv[2] ?? 15);
const TARGET_MS = 150;

if (!existsSync(bin)) {
  console.error("dist/bin/kbox.js is missing: run `npm run build` first");
  process.exit(1);
}
const home = mkdtempSync(join(tmpdir(), "kbox-bench-"));
const env = { ...process.env, KBOX_HOME: home, NO_COLOR: "1", KBOX_PROFILE: "", KBOX_URL: "", KBOX_KB: "" };

/** Wall time of one process, in ms; a failing command stops the benchmark. */
function once(args: string[], kbox = true): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, kbox ? [bin, ...args] : args, { env, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${kbox ? "kbox " : "node "}${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const cases: { label: string; args: string[]; kbox: boolean }[] = [
  { label: "node -e 0 (baseline)", args: ["-e", "0"], kbox: false },
  { label: "kbox --version", args: ["--version"], kbox: true },
  { label: "kbox kb list --json", args: ["kb", "list", "--json"], kbox: true },
  { label: "kbox find fox --json", args: ["find", "fox", "--json"], kbox: true },
  // A command that once imported src/api values (zod and every schema) rather than the generated routes.
  { label: "kbox sync list --json", args: ["sync", "list", "--json"], kbox: true },
];

try {
  once(["daemon", "start", "--quiet"]);
  once(["kb", "create", "bench", "--use", "--quiet"]);
  once(["resource", "create", "--title", "Bench", "--text", "The quick brown fox jumps over the lazy dog.", "--quiet"]);
  for (const c of cases) for (let i = 0; i < 3; i++) once(c.args, c.kbox); // warm-up: file cache, daemon tables
  const times = cases.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) for (const [i, c] of cases.entries()) times[i].push(once(c.args, c.kbox));

  const base = median(times[0]);
  console.log(`kbox CLI, warm daemon, ${runs} runs each (node ${process.version}, load ${loadavg()[0].toFixed(1)})\n`);
  console.log(
    `${"command".padEnd(24)}${"median".padStart(10)}${"min".padStart(10)}${"max".padStart(10)}${"over node".padStart(12)}`,
  );
  cases.forEach((c, i) => {
    const m = median(times[i]);
    const cells = [m, Math.min(...times[i]), Math.max(...times[i])].map((v) => `${v.toFixed(1)} ms`.padStart(10));
    const over = i === 0 ? "" : `+${(m - base).toFixed(1)} ms`;
    console.log(`${c.label.padEnd(24)}${cells.join("")}${over.padStart(12)}`);
  });
  const find = median(times[3]);
  console.log(
    `\nfind round trip: ${find.toFixed(1)} ms median, ${find <= TARGET_MS ? "within" : "over"} the ${TARGET_MS} ms target`,
  );
} finally {
  spawnSync(process.execPath, [bin, "daemon", "stop", "--quiet"], { env });
  rmSync(home, { recursive: true, force: true });
}
