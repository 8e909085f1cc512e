import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Manifest, modelDir } from "../../../daemon/models/manifest.js";
import { OnnxEmbedder } from "../../../daemon/models/onnx.js";
import { pull } from "../../../daemon/models/pull.js";
import { bertModelFiles, writeBertModel } from "../../helpers/bert-model.js";

const root = mkdtempSync(join(tmpdir(), "kbox-bert-"));
const SHAPE = { layers: 2, hidden: 32, heads: 4, intermediate: 64, pooling: "mean" as const };
const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe("a random-weights BERT encoder built by the test, loaded as an installed model", () => {
  let manifest: Manifest;
  let mean: OnnxEmbedder;
  let cls: OnnxEmbedder;
  let q8: OnnxEmbedder;
  beforeAll(async () => {
    // The same path as `kbox models add <folder>`: import into a cache, settings from the repo's files.
    const cache = join(root, "cache");
    const install = async (id: string, quantized: boolean) => {
      const src = join(root, id);
      writeBertModel(src, { ...SHAPE, quantized });
      return pull({ id, endpoint: "http://127.0.0.1:9", from: src }, cache, () => undefined);
    };
    manifest = await install("local/bert-small", false);
    mean = await OnnxEmbedder.open(modelDir(cache, manifest.id), manifest);
    cls = await OnnxEmbedder.open(modelDir(cache, manifest.id), { ...manifest, pooling: "cls" });
    const mq = await install("local/bert-small-q8", true);
    expect(mq.onnx_file).toBe("onnx/model_quantized.onnx");
    q8 = await OnnxEmbedder.open(modelDir(cache, mq.id), mq);
  }, 60_000);
  afterAll(async () => {
    await mean?.close();
    await cls?.close();
    await q8?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("installs with the settings its files declare", () => {
    expect(manifest).toMatchObject({
      kind: "embedder",
      pooling: "mean",
      normalize: true,
      dim: 32,
      onnx_file: "onnx/model.onnx",
      source: "folder",
    });
  });

  it("stores every BERT weight as float32 (the file size is the parameter count × 4)", () => {
    const { layers: L, hidden: h, intermediate: i } = SHAPE;
    const params = (30522 + 512 + 2) * h + 2 * h + L * (4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h);
    const bytes = bertModelFiles(SHAPE).get("onnx/model.onnx")?.length ?? 0;
    expect(bytes).toBeGreaterThan(params * 4);
    expect(bytes).toBeLessThan(params * 4 + 64 * 1024);
  });

  it("returns finite, normalised vectors of the hidden size that differ between texts", async () => {
    const vecs = await mean.embed(
      ["the cat sat on the mat", "quantum chromodynamics and the strong force", "the cat sat on the mat"],
      "passage",
    );
    expect(mean.dim).toBe(32);
    for (const v of vecs) {
      expect(v).toHaveLength(32);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(Array.from(vecs[0])).toEqual(Array.from(vecs[2]));
    expect(dot(vecs[0], vecs[1])).toBeLessThan(0.999);
  });

  it("attends across the sequence: the CLS vector depends on the later tokens", async () => {
    const [a, b] = await cls.embed(["cats purr softly", "cats bark loudly"], "passage");
    expect(a.every(Number.isFinite)).toBe(true);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(maxDiff(a, b)).toBeGreaterThan(1e-3);
  });

  it("gives a text the same vector alone and padded in a batch with a much longer text", async () => {
    const short = "a short sentence about cats";
    const long = "a much longer paragraph that goes on and on about many unrelated things ".repeat(12);
    for (const e of [mean, cls]) {
      const [alone] = await e.embed([short], "passage");
      const [padded, other] = await e.embed([short, long], "passage");
      expect(maxDiff(alone, padded)).toBeLessThan(1e-4);
      expect(maxDiff(alone, other)).toBeGreaterThan(1e-3);
    }
  });

  it("has an int8 form (quantize_dynamic's pattern) that computes the same model within quantization error", async () => {
    const texts = ["the cat sat on the mat", "quantum chromodynamics and the strong force"];
    const exact = await mean.embed(texts, "passage");
    const quant = await q8.embed(texts, "passage");
    for (const [i, v] of quant.entries()) {
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(dot(v, exact[i])).toBeGreaterThan(0.999);
    }
    expect(maxDiff(quant[0], exact[0])).toBeGreaterThan(0);
  });
});
