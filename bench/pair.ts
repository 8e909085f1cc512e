/**
 * Two builds side by side: `kbox add <folder> --wait` with this build's CLI and another's, both at
 * once, each on its own fresh KBOX_HOME, for a few rounds. On a machine whose speed drifts (a shared
 * 2-core VM: the same build 12.3 s and 14.4 s an hour apart), runs one after the other cannot show a
 * change of a few percent; two daemons at once share the drift, so their times compare (both are
 * longer: they compete for the cores). Prints each round's wall time and daemon CPU (all its threads,
 * from /proc) for both, and the median ratio this build / the other.
 *   npx tsx bench/pair.ts --against <other/dist/bin/kbox.js> [--cli dist/bin/kbox.js] [--files 10000 | --folder <dir> | --scifact] [--rounds 3]
 *   npx tsx bench/pair.ts --other-env NAME=VALUE [--env NAME=VALUE] [...]
 * `--scifact` writes the 5,183 SciFact abstracts (../shared/eval/scifact) as Markdown files, a title
 * heading and the abstract. The other build: a commit compiled elsewhere (`git worktree add`, a link to
 * this node_modules, `npm run build`). Without `--against`, both runs use this build and `--env` /
 * `--other-env NAME=VALUE` (repeatable) set the daemons' environment for this run and the other: two
 * settings compared the same way (`--other-env KBOX_INGEST_CONCURRENCY=1024`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { kboxPaths } from "../src/api/paths.js";
import { benchEnv, envOf, runCli } from "./kbox-cli.js";
import { writeNotes } from "./notes.js";
import { cpuSeconds } from "./proc.js";
import { quantile } from "./stats.js";

const { values: args } = parseArgs({
  options: {
    against: { type: "string" },
    env: { type: "string", multiple: true, default: [] },
    "other-env": { type: "string", multiple: true, default: [] },
    cli: { type: "string", default: join(import.meta.dirname, "..", "dist", "bin", "kbox.js") },
    files: { type: "string", default: "10000" },
    folder: { type: "string" },
    scifact: { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
  },
});
const thisEnv = envOf(args.env);
const otherEnv = envOf(args["other-env"]);
if (!args.against && !args.env.length && !args["other-env"].length) {
  process.stderr.write(
    "usage: npx tsx bench/pair.ts (--against <other/dist/bin/kbox.js> | --other-env NAME=VALUE ...) [--env NAME=VALUE ...] [--files N | --folder <dir> | --scifact] [--rounds 3]\n",
  );
  process.exit(2);
}
const against = args.against ?? args.cli;
const SCIFACT = join(import.meta.dirname, "..", "..", "shared", "eval", "scifact", "corpus.jsonl");

/** The SciFact abstracts as Markdown files in `dir`: their count. */
function writeScifact(dir: string): number {
  let n = 0;
  for (const line of readFileSync(SCIFACT, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as { _id: string; title: string; text: string };
    writeFileSync(join(dir, `${d._id}.md`), `# ${d.title}\n\n${d.text}\n`);
    n++;
  }
  return n;
}

interface Run {
  seconds: number;
  cpu: number;
  processed: number;
  code: number;
}

/** One build's add of the folder on a fresh home (its daemon started, `extra` in its environment): `run` adds, `close` stops it. */
async function prepare(
  cli: string,
  extra: Record<string, string>,
): Promise<{ run: (folder: string) => Promise<Run>; close: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "kbox-bench-pair-"));
  const env = benchEnv(home, extra);
  if ((await runCli([cli], env, ["kb", "create", "pair"])).code !== 0) throw new Error(`${cli}: kbox kb create failed`);
  const pid = Number(readFileSync(kboxPaths(env).pid, "utf8").trim());
  return {
    run: async (folder) => {
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const add = await runCli([cli], env, ["add", folder, "--kb", "pair", "--wait", "--quiet", "--json"]);
      const seconds = (performance.now() - t0) / 1000;
      const results = add.code === 0 ? (JSON.parse(add.stdout) as { results: { status: string }[] }).results : [];
      return {
        seconds,
        cpu: cpuSeconds(pid) - cpu0,
        processed: results.filter((r) => r.status === "PROCESSED").length,
        code: add.code,
      };
    },
    close: async () => {
      await runCli([cli], env, ["daemon", "stop"]).catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const made = args.folder ? undefined : mkdtempSync(join(tmpdir(), "kbox-bench-pair-files-"));
const folder = args.folder ?? (made as string);
/** Files of the folder this bench wrote (undefined for a given folder: not checked). */
function writeFolder(dir: string): number {
  if (args.scifact) return writeScifact(dir);
  writeNotes(dir, Number(args.files));
  return Number(args.files);
}
const count = args.folder ? undefined : writeFolder(folder);
const what = args.folder ?? (args.scifact ? `SciFact, ${count} abstracts as Markdown files` : `${count} notes (bench/notes.ts)`);
const show = (cli: string, env: string[]) => `${cli}${env.length ? ` ${env.join(" ")}` : ""}`;
console.log(
  `two runs at once, kbox add <folder> --wait: ${what}\n  this:  ${show(args.cli, args.env)}\n  other: ${show(against, args["other-env"])}`,
);
const wall: number[] = [];
const cpu: number[] = [];
try {
  for (let round = 1; round <= Number(args.rounds); round++) {
    const [mine, other] = await Promise.all([prepare(args.cli, thisEnv), prepare(against, otherEnv)]);
    try {
      const [a, b] = await Promise.all([mine.run(folder), other.run(folder)]);
      for (const [name, r] of [
        ["this", a],
        ["other", b],
      ] as const)
        if (r.code !== 0 || (count !== undefined && r.processed !== count))
          throw new Error(`${name} build: exit ${r.code}, ${r.processed} of ${count ?? "?"} processed`);
      wall.push(a.seconds / b.seconds);
      cpu.push(a.cpu / b.cpu);
      console.log(
        `round ${round}: this ${a.seconds.toFixed(1)} s, CPU ${a.cpu.toFixed(1)} s; other ${b.seconds.toFixed(1)} s, CPU ${b.cpu.toFixed(1)} s; ${a.processed} processed each`,
      );
    } finally {
      await Promise.all([mine.close(), other.close()]);
    }
  }
  console.log(`median ratio this / other: wall ${quantile(wall, 0.5).toFixed(3)}, daemon CPU ${quantile(cpu, 0.5).toFixed(3)}`);
} finally {
  if (made) rmSync(made, { recursive: true, force: true });
}
