import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { tinyModelFiles } from "../helpers/tiny-model.js";

// The knowledge-box-scoped predict proxy and model file download, served by kbox's own models.
let d: TestDaemon;
let kbid: string;
let files: Map<string, Buffer>;
const MODEL = "kbox-test/tiny-bge";
const ONNX = "onnx/model_quantized.onnx";

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  rawCall(d.client, method, `/api/v1/kb/${kbid}${path}`, body, headers);

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  // A tiny model imported from a folder (no network), used by the box as its semantic model.
  files = await tinyModelFiles({ dim: 16, pooling: "cls", onnxPath: ONNX });
  const dir = mkdtempSync(join(tmpdir(), "kbox-tiny-"));
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  const pulled = await rawCall(d.client, "POST", "/api/v1/kbox/models/pull", { id: MODEL, from: dir });
  expect(pulled.text).toContain('"type":"done"');
  const kb = await rawCall(d.client, "POST", "/api/v1/kbs", {
    slug: "predict-kb",
    learning_configuration: { semantic_models: [MODEL] },
  });
  kbid = (kb.json as { uuid: string }).uuid;
  await call("POST", "/entitiesgroups", { group: "PRODUCT", entities: { kbox: { value: "kbox", represents: ["k-box"] } } });
}, 60_000);
afterAll(async () => {
  await d.stop();
});

describe("predict proxy", () => {
  it("tokens: the named entities of a text, the box's groups included", async () => {
    const text = "Grace Hopper used k-box in Boston.";
    const r = await call("GET", `/predict/tokens?text=${encodeURIComponent(text)}`);
    expect(r.status).toBe(200);
    const body = r.json as { tokens: { text: string; ner: string; start: number; end: number }[]; time: number };
    expect(body.tokens).toEqual([
      { text: "Grace Hopper", ner: "PERSON", start: 0, end: 12 },
      { text: "kbox", ner: "PRODUCT", start: 18, end: 23 },
      { text: "Boston", ner: "LOC", start: 27, end: 33 },
    ]);
    expect(body.time).toBeGreaterThanOrEqual(0);
  });

  it("summarize: extractive summaries of the given texts", async () => {
    const r = await call("POST", "/predict/summarize", {
      resources: {
        a: { fields: { body: "Cats sleep a lot. Cats sleep in the sun. Dogs bark at night." } },
      },
    });
    expect(r.status).toBe(200);
    const s = r.json as { resources: { a: { summary: string; tokens: number } }; summary: string };
    expect(s.resources.a.summary).toBe("Cats sleep a lot. Cats sleep in the sun.");
    expect(s.resources.a.tokens).toBe(13);
    expect(s.summary).toBe(s.resources.a.summary);
    expect((await call("POST", "/predict/summarize", { resources: "nope" })).status).toBe(422);
  });

  it("chat answers through the proxy as /predict/chat/{kbid}", async () => {
    const r = await call(
      "POST",
      "/predict/chat",
      { question: "What do cats do?", query_context: ["Cats sleep a lot."] },
      { "x-synchronous": "true" },
    );
    expect(r.status).toBe(200);
    // The extractive answerer (no generative model configured) answers from the given context.
    expect(r.json).toMatchObject({ answer: "Cats sleep a lot.", status: "0" });
  });

  it("what cannot work here says why", async () => {
    const rerank = await call("POST", "/predict/rerank", { question: "q", context: { a: "x" } });
    expect(rerank.status).toBe(409);
    expect(rerank.json).toEqual({ detail: expect.stringContaining("No reranker is installed") });
    const remi = await call("POST", "/predict/remi", { user_id: "u" });
    expect(remi.status).toBe(400);
    expect(remi.json).toEqual({ detail: expect.stringContaining("not served by kbox") });
    expect((await call("POST", "/predict/nonsense", {})).status).toBe(404);
    expect((await call("GET", "/predict/summarize")).status).toBe(400);
  });
});

describe("model file download", () => {
  it("serves a file of the box's model, by path or unique base name", async () => {
    const r = await call("GET", `/models/${encodeURIComponent(MODEL)}/config.json`);
    expect(r.status).toBe(200);
    expect(r.text).toBe(files.get("config.json")?.toString("utf8"));
    const onnx = await call("GET", `/models/${encodeURIComponent(MODEL)}/model_quantized.onnx`);
    expect(onnx.status).toBe(200);
    expect(onnx.headers["content-length"]).toBe(String(files.get(ONNX)?.length));
  });

  it("refuses models the box does not use and files the model does not have", async () => {
    expect((await call("GET", "/models/other-model/config.json")).status).toBe(404);
    const missing = await call("GET", `/models/${encodeURIComponent(MODEL)}/secrets.txt`);
    expect(missing.status).toBe(404);
    expect((await call("GET", `/models/${encodeURIComponent(MODEL)}/..%2F..%2Fmanifest.json`)).status).toBe(404);
  });
});
