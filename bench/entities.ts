/**
 * Entity extraction: the tagger kbox runs at ingestion (daemon/entities/tagger.ts) next to the
 * `compromise` library's full tagger it replaced, on the same paragraphs, in one run: time per
 * paragraph, throughput, the ratio, and how far the two agree (spans found by both, per family).
 * Then the cost per paragraph of a whole field's entities (fieldEntities: facets, relations), with and
 * without a user's entities group of G entities.
 *   npx tsx bench/entities.ts [paragraphs=2000] [group entities=200]
 * Paragraphs: the abstracts of BEIR SciFact (../shared/eval/scifact, when present) cut at blank lines,
 * plus a set of English sentences naming people, places, organisations and dates.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import nlp from "compromise";
import { analyse } from "../daemon/entities/extract.js";
import { type EntityGroupDef, fieldEntities } from "../daemon/entities/index.js";

const N = Number(process.argv[2] ?? 2000);
const G = Number(process.argv[3] ?? 200);
const SCIFACT = join(import.meta.dirname, "..", "..", "shared", "eval", "scifact", "corpus.jsonl");

const NAMED = [
  "Marie Curie met Albert Einstein in Paris on March 3, 1921.",
  "Ada Lovelace worked with Charles Babbage in London.",
  "The University of Warsaw hired Dr. Anna Kowalska in 2019.",
  "Microsoft and Google opened offices in Dublin last year.",
  "On Monday, President Lincoln visited New York with his wife.",
  "Grace Hopper wrote the first compiler in Philadelphia.",
  "The Mississippi River floods every spring near St. Louis.",
  "Sales grew 12% to 3.4 million dollars in the third quarter of 2023.",
  "Angela Merkel spoke with Emmanuel Macron in Berlin about the budget.",
  "The Red Cross sent twelve trucks to Kenya and Uganda.",
];

function paragraphs(): string[] {
  const out: string[] = [];
  if (existsSync(SCIFACT))
    for (const line of readFileSync(SCIFACT, "utf8").split("\n")) {
      if (!line) continue;
      out.push(...(JSON.parse(line) as { text: string }).text.split(/\n\s*\n/).filter((p) => p.trim()));
      if (out.length >= N) break;
    }
  while (out.length < N) out.push(...NAMED);
  return out.slice(0, N - NAMED.length).concat(NAMED);
}

type Span = { label: string; start: number; end: number };
const LABELS: Record<string, string> = {
  "#Person+": "PERSON",
  "#Place+": "LOC",
  "#Organization+": "ORG",
  "#Date+": "DATE",
  "#Value+": "NUMBER",
};

/** What the library's full tagger finds (the matches extract.ts made before the tagger). */
function library(text: string): Span[] {
  const doc = nlp(text);
  const out: Span[] = [];
  for (const [match, label] of Object.entries(LABELS))
    for (const m of doc.match(match).json({ offset: true, terms: false, text: false }) as {
      offset?: { start: number; length: number };
    }[]) {
      if (!m.offset) continue;
      const raw = text.slice(m.offset.start, m.offset.start + m.offset.length);
      const lead = /^[\s("'[]+/u.exec(raw)?.[0].length ?? 0;
      const trail = /[\s.,;:!?)"'\]]+$/u.exec(raw)?.[0].length ?? 0;
      out.push({ label, start: m.offset.start + lead, end: m.offset.start + m.offset.length - trail });
    }
  return out;
}

function fast(text: string): Span[] {
  return analyse(text).entities.flatMap((e) => e.positions.map((p) => ({ label: e.label, ...p })));
}

function time(fn: (t: string) => unknown, ps: string[]): number {
  for (const p of ps.slice(0, 50)) fn(p); // warm up
  const t0 = performance.now();
  for (const p of ps) fn(p);
  return performance.now() - t0;
}

const ps = paragraphs();
const chars = ps.reduce((n, p) => n + p.length, 0);
const libMs = time(library, ps);
const fastMs = time(fast, ps);
const mbs = (ms: number) => (chars / 1e6 / (ms / 1000)).toFixed(2);
console.log(`entity extraction, ${ps.length} paragraphs (${(chars / 1e6).toFixed(2)} MB)`);
console.log(`library's full tagger: ${((libMs / ps.length) * 1000).toFixed(0)} µs/paragraph, ${mbs(libMs)} MB/s`);
console.log(
  `kbox tagger:           ${((fastMs / ps.length) * 1000).toFixed(0)} µs/paragraph, ${mbs(fastMs)} MB/s (${(libMs / fastMs).toFixed(0)}x faster)`,
);

const key = (s: Span) => `${s.label}:${s.start}:${s.end}`;
const tally = new Map<string, { both: number; lib: number; fast: number }>();
for (const p of ps) {
  const a = new Set(library(p).map(key));
  const b = new Set(fast(p).map(key));
  for (const k of new Set([...a, ...b])) {
    const label = k.split(":")[0];
    const t = tally.get(label) ?? { both: 0, lib: 0, fast: 0 };
    if (a.has(k) && b.has(k)) t.both++;
    else if (a.has(k)) t.lib++;
    else t.fast++;
    tally.set(label, t);
  }
}
console.log("agreement (exact spans): family, found by both, by the library only, by kbox only, overlap of kbox's");
for (const [label, t] of [...tally].sort()) {
  const share = t.both / Math.max(1, t.both + t.fast);
  console.log(
    `  ${label.padEnd(7)} ${t.both} / ${t.lib} / ${t.fast}  (${(share * 100).toFixed(0)} % of kbox's also the library's)`,
  );
}
console.log("sample (the named sentences):");
for (const p of NAMED.slice(0, 10))
  console.log(
    `  ${p}\n    kbox:    ${fast(p)
      .map((s) => `${s.label}:${p.slice(s.start, s.end)}`)
      .join(", ")}\n    library: ${library(p)
      .map((s) => `${s.label}:${p.slice(s.start, s.end)}`)
      .join(", ")}`,
  );

function fieldCost(label: string, groups: EntityGroupDef[]): void {
  let offset = 0;
  const paragraphs = ps.map((text) => {
    const p = { start: offset, end: offset + text.length, text };
    offset += text.length + 2;
    return p;
  });
  const t0 = performance.now();
  const f = fieldEntities([{ split: "", lang: "en", paragraphs }], groups, "r", (s, a, b) => `r/t/body${s}/${a}-${b}`, Infinity);
  const ms = performance.now() - t0;
  console.log(
    `${label.padEnd(34)} ${((ms / ps.length) * 1000).toFixed(0)} µs/paragraph, ${Object.keys(f.metadata.ner).length} distinct entities, ${f.relations.length} relations`,
  );
}
const group: EntityGroupDef = {
  id: "TERMS",
  entities: Object.fromEntries(
    Array.from({ length: G }, (_, i) => [`t${i}`, { value: `term${i}`, represents: [`synonym${i}`] }]),
  ),
};
console.log("a whole field (fieldEntities, every paragraph read):");
fieldCost("  tagger only", []);
fieldCost(`  tagger + a group of ${G}`, [group]);
