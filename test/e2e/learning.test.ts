import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as learning from "../../src/api/learning.js";
import { answerOf, ask } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let fresh: string;

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  // The OpenAI stand-in is on loopback: with a TCP listener the owner allows it explicitly.
  d = await startTestDaemon({
    listen: "127.0.0.1:0",
    trustRolesHeader: true,
    env: { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" },
  });
  fresh = (await d.client.call(kbs.createKb, { body: { slug: "fresh" } })).uuid;
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

const conf = (kbid: string) => `/api/v1/kb/${kbid}/configuration`;
const patch = (kbid: string, body: unknown) => rawCall(d.client, "PATCH", conf(kbid), body);

describe("a new knowledge box with no model installed", () => {
  it("says plainly that search is keyword-only, in its configuration and its record", async () => {
    const c = await d.client.call(learning.getConfiguration, { params: { kbid: fresh } });
    expect(c).toMatchObject({
      semantic_search: "keyword_only",
      semantic_models: [],
      default_semantic_model: null,
      semantic_vector_size: null,
      generative_model: "extractive",
      generative_model_source: "daemon",
      prefer_markdown_generative_response: false,
      summary: "simple",
      vectorsets: [],
    });
    expect(c.notice).toMatch(/keywords only/);
    expect(c.notice).toMatch(/kbox models pull/);
    const kb = await d.client.call(kbs.getKb, { params: { kbid: fresh } });
    expect(kb.model).toMatchObject({ semantic_search: "keyword_only", generative_model: "extractive" });
  });

  it("lists the models it may use, by provider, and the schema of an update", async () => {
    const m = await d.client.call(learning.availableModels, { params: { kbid: fresh } });
    expect(m.providers.extractive).toEqual([
      expect.objectContaining({ name: "extractive", type: "generative", installed: true, in_use: true }),
    ]);
    expect(m.providers.onnx.find((x) => x.name === "Xenova/bge-small-en-v1.5")).toMatchObject({
      type: "semantic",
      installed: false,
      dim: 384,
    });
    expect(m.providers.openai.some((x) => x.template && x.type === "generative")).toBe(true);
    const s = (await d.client.call(learning.configurationSchema, { params: { kbid: fresh } })) as Record<string, any>;
    expect(s.type).toBe("object");
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties)).toEqual(
      expect.arrayContaining([
        "semantic_models",
        "default_semantic_model",
        "generative_model",
        "user_prompts",
        "prefer_markdown_generative_response",
      ]),
    );
    expect(s.properties.generative_model.examples).toContain("extractive");
  });
});

describe("updating the configuration", () => {
  it("sets generative_model to the extractive default and to an OpenAI-compatible model; secrets are masked", async () => {
    const a = await patch(fresh, {
      generative_model: "extractive",
      prefer_markdown_generative_response: true,
      summary: "extended",
    });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({
      generative_model: "extractive",
      generative_model_source: "knowledge_box",
      prefer_markdown_generative_response: true,
      summary: "extended",
    });
    const b = await patch(fresh, {
      generative_model: "openai:tiny-chat",
      user_keys: { openai: { url: llm.url, key: "sk-secret" } },
    });
    expect(b.status).toBe(200);
    expect(b.json).toMatchObject({
      generative_model: "openai:tiny-chat",
      user_keys: { openai: { url: llm.url, key: "********" } },
      prefer_markdown_generative_response: true,
    });
    expect(JSON.stringify(await d.client.call(kbs.getKb, { params: { kbid: fresh } }))).not.toContain("sk-secret");
    // Sending the masked value back keeps the stored secret.
    expect((await patch(fresh, { user_keys: { openai: { url: llm.url, key: "********" } } })).status).toBe(200);
    expect(d.daemon.services.kbs.require(fresh).learning_configuration?.user_keys).toEqual({
      openai: { url: llm.url, key: "sk-secret" },
    });
    // null resets a member to its default.
    const c = await patch(fresh, { summary: null, prefer_markdown_generative_response: null });
    expect(c.json).toMatchObject({
      summary: "simple",
      prefer_markdown_generative_response: false,
      generative_model: "openai:tiny-chat",
    });
  });

  it("refuses unknown members, unknown generators and bad values with 422 at the offending location", async () => {
    const cases: [unknown, (string | number)[], RegExp?][] = [
      [{ colour: "blue" }, ["body", "colour"]],
      [{ generative_model: "no-such-model" }, ["body", "generative_model"], /unknown generative model/],
      // The KB's user_keys hold an endpoint URL by now; without them openai:<model> has none.
      [{ generative_model: "openai:x", user_keys: null }, ["body", "generative_model"], /no endpoint/],
      [{ generative_model: "gguf:/nowhere/model.gguf" }, ["body", "generative_model"], /no GGUF model file/],
      [{ semantic_models: ["no-such-embedder"] }, ["body", "semantic_models", 0], /unknown semantic model/],
      [{ prefer_markdown_generative_response: "yes" }, ["body", "prefer_markdown_generative_response"]],
      [{ semantic_models: [] }, ["body", "semantic_models"]],
    ];
    for (const [body, loc, msg] of cases) {
      const r = await patch(fresh, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      const issue = (r.json as any).detail[0];
      expect(issue.loc).toEqual(loc);
      if (msg) expect(issue.msg).toMatch(msg);
    }
    // Nothing was written by the refused updates.
    expect(d.daemon.services.kbs.require(fresh).learning_configuration).toMatchObject({
      generative_model: "openai:tiny-chat",
      user_keys: { openai: { url: llm.url } },
    });
  });

  it("needs the OWNER role to write, READER to read", async () => {
    const url = `${d.url}${conf(fresh)}`;
    const read = await fetch(url, { headers: { "x-nucliadb-roles": "READER" } });
    expect(read.status).toBe(200);
    const write = await fetch(url, {
      method: "PATCH",
      headers: { "x-nucliadb-roles": "READER;WRITER;MANAGER", "content-type": "application/json" },
      body: JSON.stringify({ generative_model: "extractive" }),
    });
    expect(write.status).toBe(403);
    const owner = await fetch(url, {
      method: "PATCH",
      headers: { "x-nucliadb-roles": "OWNER", "content-type": "application/json" },
      body: JSON.stringify({ summary: "simple" }),
    });
    expect(owner.status).toBe(200);
  });

  it("POST replaces the configuration and DELETE resets it, keeping the semantic models", async () => {
    const p = await rawCall(d.client, "POST", conf(fresh), { user_prompts: { "openai:tiny-chat": { system: "Be brief." } } });
    expect(p.status).toBe(200);
    expect(p.json).toMatchObject({
      generative_model: "extractive",
      user_keys: null,
      user_prompts: { "openai:tiny-chat": { system: "Be brief." } },
    });
    const del = await rawCall(d.client, "DELETE", conf(fresh));
    expect(del.json).toMatchObject({ user_prompts: null, generative_model_source: "daemon" });
  });
});

describe("semantic models of a knowledge box that holds vectors", () => {
  let kbid: string;
  let rids: Record<string, string>;
  beforeAll(async () => {
    d.daemon.services.models.registerEmbedder("hash64", new HashEmbedder(64));
    d.daemon.services.models.registerEmbedder("hash32", new HashEmbedder(32));
    ({ kbid, rids } = await seedKb(d, "vectors", undefined, { semantic_models: ["hash64"] }));
  });

  it("reports the vectorset, its dimension and how many vectors it holds", async () => {
    const c = await d.client.call(learning.getConfiguration, { params: { kbid } });
    expect(c).toMatchObject({
      semantic_search: "active",
      notice: null,
      semantic_models: ["hash64"],
      default_semantic_model: "hash64",
      semantic_vector_size: 64,
      semantic_vector_similarity: "COSINE",
    });
    expect(c.vectorsets).toEqual([
      { id: "hash64", model: "hash64", dim: 64, default: true, installed: true, vectors: expect.any(Number) },
    ]);
    expect(c.vectorsets[0].vectors).toBeGreaterThan(0);
  });

  it("refuses to switch to a model of another dimension (409) but adds a second vectorset", async () => {
    const sw = await patch(kbid, { semantic_models: ["hash32"] });
    expect(sw.status).toBe(409);
    expect((sw.json as any).detail).toMatch(/holds \d+ vectors of hash64 \(64 dims\); switching to hash32 \(32 dims\)/);
    const dflt = await patch(kbid, { default_semantic_model: "hash32" });
    expect(dflt.status).toBe(422);
    expect((dflt.json as any).detail[0].loc).toEqual(["body", "default_semantic_model"]);
    const add = await patch(kbid, { semantic_models: ["hash64", "hash32"], default_semantic_model: "hash32" });
    expect(add.status).toBe(200);
    expect(add.json).toMatchObject({
      semantic_models: ["hash64", "hash32"],
      default_semantic_model: "hash32",
      semantic_vector_size: 32,
      semantic_search: "active",
    });
    expect((add.json as any).vectorsets.map((v: any) => [v.id, v.dim, v.default])).toEqual([
      ["hash64", 64, false],
      ["hash32", 32, true],
    ]);
    expect((await patch(kbid, { semantic_models: ["hash32"] })).status).toBe(409);
  });

  it("fills an added vectorset when resources are reprocessed", async () => {
    for (const rid of Object.values(rids))
      expect((await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/resource/${rid}/reprocess`)).status).toBe(202);
    await d.daemon.services.processing.idle();
    await (await d.daemon.services.store.kb(kbid)).idle();
    const c = await d.client.call(learning.getConfiguration, { params: { kbid } });
    const [v64, v32] = c.vectorsets;
    expect(v32.vectors).toBeGreaterThan(0);
    expect(v32.vectors).toBe(v64.vectors);
  });
});

describe("ask follows the knowledge box's configuration", () => {
  it("uses the KB's generative_model when the request names none, and its Markdown preference", async () => {
    const { kbid } = await seedKb(d, "asking");
    llm.script = () => ({ chunks: ["Every Friday."] });
    const set = await patch(kbid, {
      generative_model: "openai:tiny-chat",
      user_keys: { openai: { url: llm.url, key: "sk-kb" } },
      prefer_markdown_generative_response: true,
    });
    expect(set.status).toBe(200);
    const before = llm.requests.length;
    const r = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] });
    expect(answerOf(r.items)).toBe("Every Friday.");
    expect(llm.requests.length).toBe(before + 1);
    const sent = llm.requests.at(-1) as any;
    expect(sent.model).toBe("tiny-chat");
    expect(sent.headers.authorization).toBe("Bearer sk-kb");
    expect(sent.messages[0].content).toMatch(/Markdown/);
    // The request wins: its own model and prefer_markdown.
    await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"], prefer_markdown: false });
    expect((llm.requests.at(-1) as any).messages[0].content).not.toMatch(/Markdown/);
    const ex = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"], generative_model: "extractive" });
    expect(llm.requests.length).toBe(before + 2);
    expect(answerOf(ex.items)).toMatch(/Friday/);
  });
});
