import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { rawCall } from "../helpers/raw.js";
import { tinyModelFiles } from "../helpers/tiny-model.js";

// Model configuration records (/default_models), account model paths, model file download and the
// bedrock role paths (400: no AWS here), mapped onto kbox's real models.
let d: TestDaemon;
let account: string;
let kbid: string;
let files: Map<string, Buffer>;
const MODEL = "kbox-test/tiny-bge";

const call = (method: string, path: string, body?: unknown) => rawCall(d.client, method, `/api/v1${path}`, body);

beforeAll(async () => {
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" } });
  d.daemon.services.models.registerEmbedder("hash8", new HashEmbedder(8));
  files = await tinyModelFiles({ dim: 16, pooling: "cls", onnxPath: "onnx/model_quantized.onnx" });
  const dir = mkdtempSync(join(tmpdir(), "kbox-tiny-"));
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  expect((await call("POST", "/kbox/models/pull", { id: MODEL, from: dir })).text).toContain('"type":"done"');
  account = ((await call("GET", "/../authorizer/info")).json as any).user.account_id;
  kbid = ((await call("POST", "/kbs", { slug: "mc", learning_configuration: { semantic_models: [MODEL] } })).json as any).uuid;
}, 60_000);
afterAll(async () => {
  await d.stop();
});

describe("model configuration records", () => {
  it("creates, lists, shows (keys masked), updates and deletes a record, applying it to its boxes", async () => {
    const base = `/account/${account}/default_models`;
    const created = await call("POST", base, {
      default_model_id: "openai:tiny@http://127.0.0.1:9/v1",
      description: "local endpoint",
      kbids: ["mc"],
      user_keys: { openai: { key: "sk-local-123" } },
      user_prompts: { "openai:tiny": { prompt: "Answer briefly: {question}" } },
    });
    expect(created.status).toBe(201);
    const rec = created.json as any;
    expect(rec).toMatchObject({ default_model_id: "openai:tiny@http://127.0.0.1:9/v1", kbids: [kbid], assume_role: 0 });
    const config = (await call("GET", `/config/${kbid}`)).json as any;
    expect(config.generative_model).toBe("openai:tiny@http://127.0.0.1:9/v1");
    expect(JSON.stringify(config.user_keys)).not.toContain("sk-local-123");
    expect((await call("GET", base)).json).toEqual([rec]);
    const one = (await call("GET", `/account/${account}/default_model/${rec.id}`)).json as any;
    expect(one.user_keys).toEqual({ openai: { key: "********" } });
    expect(one.user_prompts).toHaveProperty("openai:tiny");
    const upd = await call("PATCH", `/account/${account}/default_model/${rec.id}`, {
      default_model_id: "extractive",
      description: "offline",
    });
    expect(upd.json).toMatchObject({ default_model_id: "extractive", description: "offline", kbids: [kbid] });
    expect(((await call("GET", `/config/${kbid}`)).json as any).generative_model).toBe("extractive");
    expect((await call("DELETE", `/account/${account}/default_model/${rec.id}`)).status).toBe(204);
    expect((await call("GET", `/account/${account}/default_model/${rec.id}`)).status).toBe(404);
  });

  it("refuses a model kbox cannot run (422), an unknown box (422) and bedrock roles (400)", async () => {
    const base = `/account/${account}/default_models`;
    const bad = await call("POST", base, { default_model_id: "chatgpt-azure-4o" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain("default_model_id");
    expect((await call("POST", base, { default_model_id: "extractive", kbids: ["nope"] })).status).toBe(422);
    const role = await call("POST", base, { default_model_id: "extractive", assume_role: 1 });
    expect(role.status).toBe(400);
    expect((role.json as any).detail).toContain("no AWS account");
    for (const [m, p] of [
      ["GET", ""],
      ["POST", ""],
      ["DELETE", ""],
      ["GET", "/validate"],
    ]) {
      const r = await call(m, `/account/${account}/assume_role/bedrock${p}`, m === "POST" ? { role_arn: "arn:x" } : undefined);
      expect(r.status, `${m} ${p}`).toBe(400);
    }
  });
});

describe("account model paths and model file download", () => {
  it("adds and removes a model of a box, downloads a model file, removes an unused model", async () => {
    const added = await call("POST", `/account/${account}/models/${kbid}`, { id: "hash8" });
    expect(added.status).toBe(200);
    expect((added.json as any).semantic_models).toEqual([MODEL, "hash8"]);
    expect((await call("DELETE", `/account/${account}/models/${kbid}/hash8`)).status).toBe(204);
    expect(((await call("GET", `/config/${kbid}`)).json as any).semantic_models).toEqual([MODEL]);
    expect((await call("DELETE", `/account/${account}/models/${kbid}/hash8`)).status).toBe(404);
    const file = await call("GET", `/download/${kbid}/model/${encodeURIComponent(MODEL)}/config.json?account_id=${account}`);
    expect(file.status).toBe(200);
    expect(file.text).toBe(files.get("config.json")?.toString("utf8"));
    // The model is in use by the box: refused; the records list it.
    expect((await call("DELETE", `/account/${account}/model/${encodeURIComponent(MODEL)}`)).status).toBe(409);
  });
});
