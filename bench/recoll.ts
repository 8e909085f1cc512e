/**
 * recoll (the Debian desktop indexer, C++ over Xapian) run on the same folder as kbox, for the ratios
 * the benchmarks print. Installed from Debian when missing (`apt-get install recollcmd`, the command-line
 * half of the `recoll` package; needs root or sudo); without it the benches print kbox alone.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/** recollindex on the PATH, installing the Debian package when it is not; false when that cannot be done. */
export function ensureRecoll(say: (s: string) => void = () => undefined): boolean {
  if (has("recollindex")) return true;
  const root = process.getuid?.() === 0;
  const apt = root ? ["apt-get"] : has("sudo") ? ["sudo", "-n", "apt-get"] : undefined;
  if (!apt) {
    say("recoll is not installed and cannot be (not root, no sudo): kbox figures only");
    return false;
  }
  say("installing recoll (apt-get install recollcmd)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync(apt[0], [...apt.slice(1), "install", "-y", "--no-install-recommends", "recollcmd"], { env, stdio: "ignore" });
  return has("recollindex");
}

/** Bytes a folder takes on disk (du: blocks, as a user sees it, not the files' apparent sizes). */
export function diskBytes(dir: string): number {
  return Number(execFileSync("du", ["-sk", dir]).toString().split("\t")[0]) * 1024;
}

/**
 * Where a KBOX_HOME's disk goes, largest first: the LanceDB tables and the blob folders of its boxes
 * (`data/kbs/<id>/lance/<table>.lance`, `data/kbs/<id>/blobs/<kind>`, summed over boxes), and the
 * rest by folder (`data/meta`, `run`, ...).
 */
export function diskParts(home: string): [string, number][] {
  const parts = new Map<string, number>();
  const add = (name: string, path: string) => parts.set(name, (parts.get(name) ?? 0) + diskBytes(path));
  const kbs = join(home, "data", "kbs");
  for (const top of readdirSync(home)) if (top !== "data") add(top, join(home, top));
  for (const d of existsSync(join(home, "data")) ? readdirSync(join(home, "data")) : []) {
    if (d !== "kbs") add(`data/${d}`, join(home, "data", d));
  }
  for (const box of existsSync(kbs) ? readdirSync(kbs) : []) {
    for (const entry of readdirSync(join(kbs, box))) {
      const path = join(kbs, box, entry);
      if (entry === "lance" || entry === "blobs") {
        for (const t of readdirSync(path)) add(entry === "lance" ? t.replace(/\.lance$/, "") : `blobs/${t}`, join(path, t));
      } else add("box (other)", path);
    }
  }
  return [...parts].filter(([, b]) => b > 0).sort((x, y) => y[1] - x[1]);
}

/** Peak resident memory of a process so far (VmHWM), bytes; 0 once it is gone. */
function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface RecollRun {
  seconds: number;
  peakRssBytes: number;
  confdir: string;
}

/** A recoll configuration indexing `root` only (no spelling dictionary), in a new folder. */
export function recollConfig(root: string): string {
  const confdir = mkdtempSync(join(tmpdir(), "kbox-bench-recoll-"));
  writeFileSync(join(confdir, "recoll.conf"), `topdirs = ${root}\nnoaspell = 1\nloglevel = 1\n`);
  return confdir;
}

/** Run recollindex (a full index the first time, incremental after) and time it, with its peak memory. */
export async function recollIndex(confdir: string): Promise<RecollRun> {
  const t0 = performance.now();
  const child = spawn("recollindex", ["-c", confdir], { stdio: "ignore" });
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakRss(child.pid ?? 0));
  }, 20);
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`recollindex exited ${code}`);
  return { seconds: (performance.now() - t0) / 1000, peakRssBytes: peak, confdir };
}

/** Documents recoll finds for a word. */
export function recollCount(confdir: string, word: string): number {
  const out = spawnSync("recollq", ["-c", confdir, "-b", word], { encoding: "utf8" }).stdout ?? "";
  return out.split("\n").filter((l) => l.startsWith("file://")).length;
}
