import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readInstalled } from "../../../daemon/models/manifest.js";
import { OnnxEmbedder } from "../../../daemon/models/onnx.js";
import { pull } from "../../../daemon/models/pull.js";
import type { FetchPolicy } from "../../../daemon/net/outbound.js";
import type { PullEvent } from "../../../src/api/models.js";
import { type FakeHub, startFakeHub } from "../../helpers/fake-hub.js";
import { sha256, tinyModelFiles, writeTinyModel } from "../../helpers/tiny-model.js";

/** The hub stand-in is on loopback: the test allows it, as an owner would with KBOX_HF_ENDPOINT. */
const policy: FetchPolicy = { allowPrivate: true, allow: [] };

let hub: FakeHub;
let files: Map<string, Buffer>;
const homes: string[] = [];
const cache = () => {
  const d = mkdtempSync(join(tmpdir(), "kbox-pull-"));
  homes.push(d);
  return d;
};
const collect = () => {
  const events: PullEvent[] = [];
  return { events, emit: (e: PullEvent) => void events.push(e) };
};

beforeAll(async () => {
  hub = await startFakeHub();
  files = await tinyModelFiles({ dim: 24, pooling: "cls", onnxPath: "onnx/model_quantized.onnx" });
  hub.add("kbox-test/tiny-bge", files);
});
afterEach(() => {
  hub.requests.length = 0;
});
afterAll(async () => {
  await hub.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe("pulling a model from a hub", () => {
  it("downloads the listed files with progress, verifies and installs them, and the model loads", async () => {
    const dir = cache();
    const { events, emit } = collect();
    const m = await pull({ id: "kbox-test/tiny-bge", endpoint: hub.url, policy }, dir, emit);
    expect(m).toMatchObject({
      id: "kbox-test/tiny-bge",
      kind: "embedder",
      pooling: "cls",
      dim: 24,
      onnx_file: "onnx/model_quantized.onnx",
      source: "hub",
    });
    const start = events[0];
    expect(start.type).toBe("start");
    if (start.type === "start") expect(start.total_bytes).toBe([...files.values()].reduce((a, b) => a + b.length, 0));
    const onnx = files.get("onnx/model_quantized.onnx") as Buffer;
    const last = events.filter((e) => e.type === "progress").at(-1);
    expect(last).toMatchObject({
      type: "progress",
      path: "onnx/model_quantized.onnx",
      file_bytes: onnx.length,
      file_total: onnx.length,
    });
    expect(
      events
        .filter((e) => e.type === "file" && e.status === "done")
        .map((e) => (e as { path: string }).path)
        .sort(),
    ).toEqual([...files.keys()].sort());
    const installed = join(dir, "kbox-test", "tiny-bge");
    expect(sha256(readFileSync(join(installed, "onnx/model_quantized.onnx")))).toBe(sha256(onnx));
    expect(m.files.find((f) => f.path.endsWith(".onnx"))?.sha256).toBe(sha256(onnx));
    expect(readInstalled(dir).map((x) => x.id)).toEqual(["kbox-test/tiny-bge"]);
    expect(hub.requests.map((r) => r.path)).toContain("/api/models/kbox-test/tiny-bge");
    expect(existsSync(join(dir, ".staging", "kbox-test--tiny-bge--main"))).toBe(false);
    const e = await OnnxEmbedder.open(installed, m);
    const [v] = await e.embed(["hello"], "passage");
    expect(v).toHaveLength(24);
    await e.close();
  });

  it("resumes an interrupted download with a Range request", async () => {
    const dir = cache();
    const onnx = files.get("onnx/model_quantized.onnx") as Buffer;
    const cut = Math.floor(onnx.length / 2);
    hub.dropAfter("onnx/model_quantized.onnx", cut);
    const first = collect();
    await expect(pull({ id: "kbox-test/tiny-bge", endpoint: hub.url, policy }, dir, first.emit)).rejects.toThrow();
    expect(readInstalled(dir)).toEqual([]);
    const part = join(dir, ".staging", "kbox-test--tiny-bge--main", "onnx", "model_quantized.onnx.part");
    // what arrived before the cut is kept (the client may not have taken in every last byte)
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(cut);
    hub.requests.length = 0;
    const second = collect();
    const m = await pull({ id: "kbox-test/tiny-bge", endpoint: hub.url, policy }, dir, second.emit);
    const onnxRequests = hub.requests.filter((r) => r.path.endsWith(".onnx"));
    expect(onnxRequests).toEqual([
      { method: "GET", path: "/kbox-test/tiny-bge/resolve/main/onnx/model_quantized.onnx", range: `bytes=${kept}-` },
    ]);
    expect(second.events).toContainEqual({
      type: "file",
      path: "onnx/model_quantized.onnx",
      status: "resuming",
      offset: kept,
      size: onnx.length,
    });
    // files finished before the cut are not fetched again
    expect(second.events.filter((e) => e.type === "file" && e.status === "cached").length).toBeGreaterThan(0);
    expect(sha256(readFileSync(join(dir, "kbox-test", "tiny-bge", "onnx/model_quantized.onnx")))).toBe(sha256(onnx));
    expect(m.files).toHaveLength(files.size);
  });

  it("refuses a file whose checksum does not match and installs nothing", async () => {
    const dir = cache();
    const onnx = files.get("onnx/model_quantized.onnx") as Buffer;
    const bad = Buffer.from(onnx);
    bad[bad.length - 10] ^= 0xff;
    hub.tamper("onnx/model_quantized.onnx", bad);
    try {
      await expect(pull({ id: "kbox-test/tiny-bge", endpoint: hub.url, policy }, dir, () => undefined)).rejects.toThrow(
        /checksum mismatch for onnx\/model_quantized.onnx: sha256 expected/,
      );
    } finally {
      hub.tamper("onnx/model_quantized.onnx", onnx);
    }
    expect(readInstalled(dir)).toEqual([]);
    expect(existsSync(join(dir, "kbox-test", "tiny-bge"))).toBe(false);
    const staged = join(dir, ".staging", "kbox-test--tiny-bge--main", "onnx");
    expect(readdirSync(staged)).toEqual([]);
  });

  it("says clearly when a repo does not exist, has no ONNX weights, or the hub is down", async () => {
    const dir = cache();
    await expect(pull({ id: "kbox-test/nope", endpoint: hub.url, policy }, dir, () => undefined)).rejects.toMatchObject({
      status: 404,
    });
    hub.add(
      "kbox-test/pytorch-only",
      new Map([
        ["config.json", Buffer.from("{}")],
        ["tokenizer.json", Buffer.from("{}")],
        ["pytorch_model.bin", Buffer.alloc(10)],
      ]),
    );
    await expect(pull({ id: "kbox-test/pytorch-only", endpoint: hub.url, policy }, dir, () => undefined)).rejects.toThrow(
      /no ONNX weights/,
    );
    await expect(pull({ id: "../../etc", endpoint: hub.url, policy }, dir, () => undefined)).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      pull({ id: "kbox-test/tiny-bge", endpoint: "http://127.0.0.1:9", policy }, dir, () => undefined),
    ).rejects.toThrow(/cannot reach the model hub/);
  });

  it("imports a model from a local folder", async () => {
    const dir = cache();
    const src = join(cache(), "export");
    await writeTinyModel(src, { dim: 8, crossEncoder: true });
    const m = await pull({ id: "local/tiny-ce", endpoint: hub.url, policy, from: src }, dir, () => undefined);
    expect(m).toMatchObject({ id: "local/tiny-ce", kind: "reranker", source: "folder", onnx_file: "onnx/model.onnx" });
    expect(hub.requests).toEqual([]);
  });
});
