/**
 * Language detection: eld's own detector next to its database packed into typed arrays
 * (daemon/ingest/language-model.ts), in one run, on the same texts: time per text, the ratio, the JS
 * heap each holds once loaded, and that both gave the same detections.
 *   node --expose-gc --import tsx bench/language.ts [notes=10000] [rounds=3]
 * Texts: N notes of bench/notes.ts (the folder-sync benches' files) and the repository's docs/*.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { getHeapStatistics } from "node:v8";
import { eldDetector, LanguageModel } from "../daemon/ingest/language-model.js";
import { noteText } from "./notes.js";

const N = Number(process.argv[2] ?? 10000);
const ROUNDS = Number(process.argv[3] ?? 3);
const gc = (globalThis as { gc?: () => void }).gc;
const heapMib = () => {
  gc?.();
  return getHeapStatistics().used_heap_size / 1048576;
};

async function main(): Promise<void> {
  const docs = join(import.meta.dirname, "..", "docs");
  const sets: [string, string[]][] = [
    [`${N} notes`, Array.from({ length: N }, (_, i) => noteText(i))],
    [
      "docs/*.md",
      readdirSync(docs)
        .filter((f) => f.endsWith(".md"))
        .map((f) => readFileSync(join(docs, f), "utf8")),
    ],
  ];
  const h0 = heapMib();
  const model = await LanguageModel.load();
  const h1 = heapMib();
  const eld = await eldDetector();
  eld.detect("warm up");
  const h2 = heapMib();
  if (!gc) console.log("(run with node --expose-gc for the heap figures)");
  console.log(`heap once loaded: eld ${(h2 - h1).toFixed(1)} MiB, packed ${(h1 - h0).toFixed(1)} MiB`);
  for (const [name, texts] of sets) {
    let same = true;
    for (const t of texts) same &&= isDeepStrictEqual(model.detect(t), eld.detect(t));
    for (let r = 0; r < ROUNDS; r++) {
      let t0 = performance.now();
      for (const t of texts) eld.detect(t);
      const a = performance.now() - t0;
      t0 = performance.now();
      for (const t of texts) model.detect(t);
      const b = performance.now() - t0;
      const us = (ms: number) => `${((ms * 1000) / texts.length).toFixed(1)} µs`;
      console.log(
        `${name.padEnd(12)} round ${r + 1}: eld ${us(a)}/text, packed ${us(b)}/text (${(a / b).toFixed(2)}x); same results: ${same}`,
      );
    }
  }
}

await main();
