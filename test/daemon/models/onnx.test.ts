import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../../daemon/models/manifest.js";
import { OnnxEmbedder, OnnxReranker } from "../../../daemon/models/onnx.js";
import { writeTinyModel } from "../../helpers/tiny-model.js";

const dir = mkdtempSync(join(tmpdir(), "kbox-onnx-"));
const manifest = (over: Partial<Manifest>): Manifest => ({
  id: "kbox-test/tiny",
  revision: "main",
  kind: "embedder",
  pooling: "mean",
  normalize: true,
  query_prefix: "",
  passage_prefix: "",
  onnx_file: "onnx/model.onnx",
  dim: 16,
  files: [],
  installed_at: "",
  source: "folder",
  origin: dir,
  ...over,
});
const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("ONNX embedder on a tiny model built by the test", () => {
  let mean: OnnxEmbedder;
  let cls: OnnxEmbedder;
  beforeAll(async () => {
    await writeTinyModel(join(dir, "enc"), { dim: 16 });
    await writeTinyModel(join(dir, "ce"), { dim: 16, crossEncoder: true, seed: 3 });
    mean = await OnnxEmbedder.open(join(dir, "enc"), manifest({ query_prefix: "query: ", passage_prefix: "passage: " }));
    cls = await OnnxEmbedder.open(join(dir, "enc"), manifest({ pooling: "cls", query_prefix: "represent this for search: " }));
  });
  afterAll(async () => {
    await mean?.close();
    await cls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("returns normalised vectors of the model's dimension, in input order", async () => {
    const texts = ["the cat sat on the mat", "a", "quantum chromodynamics and the strong force", "the cat sat on the mat"];
    const vecs = await mean.embed(texts, "passage");
    expect(mean.dim).toBe(16);
    expect(mean.id).toBe("onnx:kbox-test/tiny");
    expect(vecs).toHaveLength(4);
    for (const v of vecs) {
      expect(v).toHaveLength(16);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(Array.from(vecs[0])).toEqual(Array.from(vecs[3]));
    expect(cos(vecs[0], vecs[2])).toBeLessThan(0.9999);
  });

  it("is deterministic and independent of batching and padding", async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `sentence number ${i} ${"word ".repeat(i % 7)}`);
    const all = await mean.embed(texts, "passage");
    const one = await mean.embed([texts[33]], "passage");
    const again = await mean.embed(texts, "passage");
    for (let i = 0; i < 16; i++) expect(one[0][i]).toBeCloseTo(all[33][i], 5);
    expect(again.map((v) => Array.from(v))).toEqual(all.map((v) => Array.from(v)));
  });

  it("applies the query and passage prefixes", async () => {
    const [q] = await mean.embed(["cats"], "query");
    const [p] = await mean.embed(["cats"], "passage");
    const noPrefix = await OnnxEmbedder.open(join(dir, "enc"), manifest({}));
    const [raw] = await noPrefix.embed(["query: cats"], "passage");
    const [rawP] = await noPrefix.embed(["passage: cats"], "query");
    await noPrefix.close();
    expect(Array.from(q)).not.toEqual(Array.from(p));
    for (let i = 0; i < 16; i++) {
      expect(q[i]).toBeCloseTo(raw[i], 5);
      expect(p[i]).toBeCloseTo(rawP[i], 5);
    }
  });

  it("pools by CLS or by masked mean as the model says", async () => {
    const [a] = await cls.embed(["the same text"], "passage");
    const [b] = await mean.embed(["the same text"], "query");
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(Array.from(a)).not.toEqual(Array.from(b));
    const [c] = await cls.embed(["another text entirely"], "passage");
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it("honours an abort signal", async () => {
    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await expect(mean.embed(["x"], "passage", ac.signal)).rejects.toThrow("stop");
  });

  it("loads a tiny cross-encoder as a reranker", async () => {
    const r = await OnnxReranker.open(
      join(dir, "ce"),
      manifest({ id: "kbox-test/tiny-ce", kind: "reranker", onnx_file: "onnx/model.onnx" }),
    );
    const passages = ["cats purr", "the stock market fell", "cats purr"];
    const s1 = await r.score("do cats purr", passages);
    const s2 = await r.score("do cats purr", passages);
    expect(s1).toHaveLength(3);
    for (const s of s1) expect(s).toBeGreaterThan(0), expect(s).toBeLessThan(1);
    expect(s1).toEqual(s2);
    expect(s1[0]).toBeCloseTo(s1[2], 6);
    expect(s1[0]).not.toBeCloseTo(s1[1], 6);
    await r.close();
  });
});
