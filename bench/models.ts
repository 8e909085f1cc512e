/**
 * Raw embedding throughput of an installed model, called alone (no queue, no store): the baseline
 * the ingestion pipeline's overhead is measured against.
 *   npx tsx bench/models.ts [model-id] [--n 2000] [--batch 256] [--fp32]
 * Uses the model cache of KBOX_HOME (or the XDG data dir); with no model installed it measures a
 * random-weights BERT of all-MiniLM-L6-v2's shape built on the spot (int8 as kbox pulls it, or fp32
 * with --fp32), and says so: compute cost does not depend on weight values, so its speed is that
 * model's, but its vectors mean nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Manifest, modelDir, readInstalled } from "../daemon/models/manifest.js";
import { DEFAULT_MODEL_THREADS, OnnxEmbedder } from "../daemon/models/onnx.js";
import type { Embedder } from "../daemon/models/types.js";
import { kboxPaths } from "../src/api/paths.js";
import { hostDirs } from "../src/cli/paths.js";

export interface ThroughputResult {
  model: string;
  dim: number;
  texts: number;
  seconds: number;
  texts_per_s: number;
  chars_per_s: number;
}

/** Paragraph-like texts of 40–120 words, deterministic. */
export function benchTexts(n: number): string[] {
  const words =
    "the model reads every paragraph of a document and maps its meaning to a vector that search compares with the query".split(
      " ",
    );
  return Array.from({ length: n }, (_, i) => {
    const len = 40 + ((i * 37) % 80);
    return Array.from({ length: len }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ") + ` (${i})`;
  });
}

/** Embed `texts` in calls of `batch` and time it (one warm-up call first, as the pipeline would have). */
export async function measureEmbedding(embedder: Embedder, texts: string[], batch = 256): Promise<ThroughputResult> {
  await embedder.embed(texts.slice(0, 4), "passage");
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += batch) await embedder.embed(texts.slice(i, i + batch), "passage");
  const seconds = (performance.now() - t0) / 1000;
  const chars = texts.reduce((a, t) => a + t.length, 0);
  return {
    model: embedder.id,
    dim: embedder.dim,
    texts: texts.length,
    seconds,
    texts_per_s: texts.length / seconds,
    chars_per_s: chars / seconds,
  };
}

/** Intra-op threads, as the daemon would run the model (KBOX_MODEL_THREADS). */
const THREADS = Number(process.env.KBOX_MODEL_THREADS) || DEFAULT_MODEL_THREADS;

/** Open an installed ONNX embedder from a model cache (the first one, or `id`). */
export async function installedEmbedder(cacheDir: string, id?: string): Promise<OnnxEmbedder | undefined> {
  const m = readInstalled(cacheDir).find((x) => x.kind === "embedder" && (!id || x.id === id));
  return m ? OnnxEmbedder.open(modelDir(cacheDir, m.id), m, THREADS) : undefined;
}

/** A random-weights encoder with the architecture of all-MiniLM-L6-v2 (q8, or fp32: about 90 MB in `dir`). */
export async function minilmShapedEmbedder(dir: string, quantized = true): Promise<OnnxEmbedder> {
  const { MINILM_L6, bertOnnxPath, writeBertModel } = await import("../test/helpers/bert-model.js");
  writeBertModel(dir, { ...MINILM_L6, quantized });
  const m: Manifest = {
    ...{ id: "kbox-bench/minilm-l6-shape", revision: "local", kind: "embedder", pooling: "mean", normalize: true },
    ...{
      query_prefix: "",
      passage_prefix: "",
      onnx_file: bertOnnxPath({ quantized }),
      dim: 384,
      files: [],
      installed_at: "",
      source: "folder",
      origin: dir,
    },
  };
  return OnnxEmbedder.open(dir, m, THREADS);
}

async function main(): Promise<void> {
  const arg = (name: string, def: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const id = process.argv[2]?.startsWith("--") ? undefined : process.argv[2];
  const cache = join(kboxPaths(process.env, hostDirs()).data, "models");
  let tmp: string | undefined;
  let e = await installedEmbedder(cache, id);
  if (!e) {
    if (id) throw new Error(`model ${id} is not installed in ${cache}`);
    tmp = mkdtempSync(join(tmpdir(), "kbox-bench-"));
    const q8 = !process.argv.includes("--fp32");
    console.log(
      `no embedding model installed in ${cache}: measuring a random-weights encoder shaped like all-MiniLM-L6-v2 (${q8 ? "int8" : "fp32"})`,
    );
    e = await minilmShapedEmbedder(tmp, q8);
  }
  const r = await measureEmbedding(e, benchTexts(arg("--n", 2000)), arg("--batch", 256));
  console.log(`model ${r.model}  dim ${r.dim}  threads ${THREADS}`);
  console.log(
    `${r.texts} paragraphs in ${r.seconds.toFixed(2)} s: ${r.texts_per_s.toFixed(1)} paragraphs/s, ${(r.chars_per_s / 1e6).toFixed(3)} MB/s of text`,
  );
  await e.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
