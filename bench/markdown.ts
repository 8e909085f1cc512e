/**
 * Markdown to text: the direct walk of marked's tokens (daemon/ingest/extract/markdown-walk.ts) next to
 * the HTML path it replaced (marked → HTML → linkedom DOM → walk), on the same documents, in one run:
 * time per document for `markdownDocument` both ways, the ratio, how many documents the walk took
 * itself (the others hold raw HTML and take the HTML path either way), and that both gave the same.
 *   nice npx tsx bench/markdown.ts [notes=2000] [rounds=3]
 * Sets: N notes of bench/notes.ts (the folder-sync benches' files) and the repository's docs/*.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
import { Lexer } from "marked";
import { walkMarkdown } from "../daemon/ingest/extract/markdown-walk.js";
import { type MarkdownPath, markdownDocument } from "../daemon/ingest/extract/markup.js";
import { noteText } from "./notes.js";

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const DOCS = join(import.meta.dirname, "..", "docs");

// Garbage collection's pauses, summed (the allocation the DOM and the HTML string cost shows here).
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ["gc"] });

/** ms per document, and ms of GC per document, for one pass over `docs`. */
async function time(docs: string[], via: MarkdownPath): Promise<[number, number]> {
  await new Promise((r) => setImmediate(r));
  gcMs = 0;
  const t0 = performance.now();
  for (const md of docs) markdownDocument(md, via);
  const ms = performance.now() - t0;
  // GC entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 20));
  return [ms / docs.length, gcMs / docs.length];
}

const best = (a: [number, number], b: [number, number]): [number, number] => (b[0] < a[0] ? b : a);

async function run(name: string, docs: string[]): Promise<void> {
  const walked = docs.filter((md) => walkMarkdown(Lexer.lex(md, { gfm: true })) !== null).length;
  const same = docs.filter((md) => isDeepStrictEqual(markdownDocument(md, "walk"), markdownDocument(md, "html"))).length;
  const kib = docs.reduce((n, md) => n + Buffer.byteLength(md), 0) / 1024;
  // Warmed up by the checks above; the best of a few rounds, alternating, is the figure (the machine is shared).
  let html: [number, number] = [Number.POSITIVE_INFINITY, 0];
  let walk: [number, number] = [Number.POSITIVE_INFINITY, 0];
  for (let r = 0; r < ROUNDS; r++) {
    html = best(html, await time(docs, "html"));
    walk = best(walk, await time(docs, "walk"));
  }
  const f = ([ms, gc]: [number, number]) => `${ms.toFixed(3)} ms/doc (GC ${gc.toFixed(3)})`;
  console.log(
    `${name}: ${docs.length} documents (${kib.toFixed(0)} KiB), walked ${walked}, identical ${same}/${docs.length}; ` +
      `HTML path ${f(html)}, walk ${f(walk)}: ${(html[0] / walk[0]).toFixed(1)}x`,
  );
}

await run(
  "notes",
  Array.from({ length: N }, (_, i) => noteText(i)),
);
await run(
  "docs/*.md",
  readdirSync(DOCS)
    .filter((f) => f.endsWith(".md"))
    .map((f) => readFileSync(join(DOCS, f), "utf8")),
);
