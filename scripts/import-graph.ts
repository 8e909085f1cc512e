/**
 * The import graph of bin/, src/ and daemon/: every import cycle, and every import against the
 * layering rules (scripts/import-rules.ts). `npm run lint` runs it; exits 1 on any finding.
 * `--areas` also prints the daemon's area graph (area -> areas it imports, with import counts).
 *
 * Every import counts: `import type`, re-exports and dynamic `import()` too — a cycle through types
 * still means two modules cannot be understood (or moved) apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { API_PACKAGES, DAEMON_AREAS, STORE_PACKAGES } from "./import-rules.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIRS = ["bin", "src", "daemon"];

/** One import of a scanned file: a file of the tree (`to`, relative to the root) or a package (`pkg`). */
export interface Edge {
  to?: string;
  pkg?: string;
  spec: string;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

/** `./x.js` → `./x.ts` (or .tsx, or a folder's index.ts), relative to the root; undefined when missing. */
function resolveRelative(from: string, spec: string): string | undefined {
  const base = join(dirname(from), spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, "");
  const candidates = [`${stem}.ts`, `${stem}.tsx`, base, `${base}/index.ts`];
  return candidates.find((c) => existsSync(join(ROOT, c)) && statSync(join(ROOT, c)).isFile());
}

function packageOf(spec: string): string {
  if (spec.startsWith("node:")) return spec;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every import of one file: declarations, re-exports, `import type`, dynamic and type-position `import()`. */
function importsOf(file: string): Edge[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return info.importedFiles.map(({ fileName: spec }) => {
    if (!spec.startsWith(".")) return { pkg: packageOf(spec), spec };
    return { to: resolveRelative(file, spec) ?? `?${spec}`, spec };
  });
}

/** The daemon area of a file (its folder under daemon/, or the top-level file's name); undefined outside daemon/. */
export function areaOf(file: string): string | undefined {
  const m = /^daemon\/([^/]+?)(\.tsx?)?(\/|$)/.exec(file);
  return m ? m[1] : undefined;
}

/** The folder of src/ a file is in (src/cli, src/commands...); undefined outside src/. */
function srcAreaOf(file: string): string | undefined {
  return /^(src\/[^/.]+)\//.exec(file)?.[1];
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) !== idx.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || graph.get(v)?.includes(v)) out.push(scc.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** One concrete loop through a component, for the message: the shortest path back to its first file. */
function loopThrough(scc: string[], graph: Map<string, string[]>): string[] {
  const inside = new Set(scc);
  const start = scc[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)!) path.splice(1, 0, x);
        return [...path, start];
      }
      if (prev.has(w)) continue;
      prev.set(w, v);
      queue.push(w);
    }
  }
  return [start, start];
}

/** What one import breaks, if anything. */
export function ruleViolation(file: string, e: Edge): string | undefined {
  const what = e.to ?? e.pkg;
  if (e.to?.startsWith("?")) return `${file}: cannot resolve ${e.spec}`;
  if (file.startsWith("src/api/")) {
    if (e.pkg && !API_PACKAGES.includes(e.pkg))
      return `${file} imports ${e.pkg}: src/api imports only ${API_PACKAGES.join(", ")}`;
    if (e.to && !e.to.startsWith("src/api/")) return `${file} imports ${e.to}: src/api imports only src/api`;
  }
  if (e.pkg && STORE_PACKAGES.includes(e.pkg) && !file.startsWith("daemon/store/"))
    return `${file} imports ${e.pkg}: only daemon/store imports ${STORE_PACKAGES.join(", ")}`;
  if (file.startsWith("src/") && e.to?.startsWith("daemon/")) return `${file} imports ${what}: src/ never imports daemon/`;
  if (file.startsWith("daemon/") && e.to?.startsWith("src/") && !e.to.startsWith("src/api/"))
    return `${file} imports ${what}: daemon/ imports only src/api of src/`;
  const [from, to] = [areaOf(file), e.to && areaOf(e.to)];
  if (!from || !to || from === to) return undefined;
  const allowed = DAEMON_AREAS[from];
  if (!allowed) return `${file}: daemon area ${from} is not in scripts/import-rules.ts`;
  if (allowed.includes(to)) return undefined;
  return `${file} imports ${what}: ${from} ${allowed.length ? `may import only ${allowed.join(", ")}` : "imports no other area"} of daemon/`;
}

/** The rules must themselves be layers: an allowed arrow back up would let a cycle between areas pass. */
function ruleCycles(): string[] {
  const g = new Map(Object.entries(DAEMON_AREAS).map(([a, to]) => [a, [...to]]));
  return cycles(g).map((c) => `scripts/import-rules.ts allows a cycle between areas: ${c.join(", ")}`);
}

/** Area -> area -> number of imports, for the areas `of` names. */
function areaGraph(edges: Map<string, Edge[]>, of: (file: string) => string | undefined): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const [file, es] of edges) {
    const from = of(file);
    if (!from) continue;
    for (const e of es) {
      const to = e.to && of(e.to);
      if (!to || to === from) continue;
      const m = counts.get(from) ?? new Map<string, number>();
      counts.set(from, m.set(to, (m.get(to) ?? 0) + 1));
    }
  }
  return counts;
}

/** Cycles between folders of src/ (src/cli importing src/commands, which imports src/cli...). */
function srcAreaCycles(edges: Map<string, Edge[]>): string[] {
  const g = new Map([...areaGraph(edges, srcAreaOf)].map(([a, m]) => [a, [...m.keys()]]));
  return cycles(g).map((c) => `cycle between folders: ${loopThrough(c, g).join(" -> ")}`);
}

function printAreas(edges: Map<string, Edge[]>): void {
  const counts = areaGraph(edges, areaOf);
  for (const a of [...counts.keys()].sort()) {
    const to = [...counts.get(a)!].sort(([x], [y]) => x.localeCompare(y));
    process.stdout.write(`${a} -> ${to.map(([t, n]) => `${t} (${n})`).join(", ")}\n`);
  }
}

function main(): number {
  const files = DIRS.flatMap(sources);
  const edges = new Map(files.map((f) => [f, importsOf(f)]));
  const graph = new Map([...edges].map(([f, es]) => [f, es.flatMap((e) => (e.to && edges.has(e.to) ? [e.to] : []))]));
  const problems = [
    ...ruleCycles(),
    ...cycles(graph).map((c) => `cycle: ${loopThrough(c, graph).join(" -> ")}${c.length > 2 ? ` (${c.length} files)` : ""}`),
    ...srcAreaCycles(edges),
    ...[...edges].flatMap(([f, es]) => es.map((e) => ruleViolation(f, e)).filter((v): v is string => Boolean(v))),
  ];
  if (process.argv.includes("--areas")) printAreas(edges);
  const n = [...edges.values()].reduce((a, es) => a + es.length, 0);
  for (const p of problems) process.stdout.write(`${p}\n`);
  process.stdout.write(`import graph: ${files.length} files, ${n} imports, ${problems.length} problem(s)\n`);
  return problems.length ? 1 : 0;
}

if (relative(ROOT, fileURLToPath(import.meta.url)) === relative(ROOT, resolve(process.argv[1] ?? ""))) process.exitCode = main();
