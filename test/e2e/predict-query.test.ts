import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as predict from "../../src/api/predict.js";
import { OFFLINE, rawJson, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";

// Predict Query: language, stop words, entities and rephrasing, computed locally.
let d: TestDaemon;
let llm: OpenAiStandIn;

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" } });
});
afterAll(async () => {
  await d.stop();
  await llm.stop();
});

const analyse = (body: Record<string, unknown>) => d.client.call(predict.predictQuery, { body }) as Promise<Record<string, any>>;

describe("Predict Query", () => {
  it("detects the language of long and short queries and lists their stop words", async () => {
    const en = await analyse({ text: "What is the discovery of Marie Curie in Paris?" });
    expect(en.language).toBe("en");
    // English stop words are the keyword analyzer's (Lucene's set): the words search drops too.
    expect(en.stop_words).toEqual(["is", "the", "of", "in"]);
    const es = await analyse({ text: "dónde está la casa de los abuelos" });
    expect(es.language).toBe("es");
    expect(es.stop_words).toEqual(expect.arrayContaining(["la", "de", "los"]));
    const fr = await analyse({ text: "le chat et la souris" });
    expect(fr.language).toBe("fr");
  });

  it("finds named entities with their offsets", async () => {
    const text = "What did Marie Curie discover in Paris in 1898?";
    const r = await analyse({ text });
    const byLabel = Object.fromEntries(r.entities.tokens.map((t: any) => [t.ner, t]));
    expect(byLabel.PERSON.text).toBe("Marie Curie");
    expect(text.slice(byLabel.PERSON.start, byLabel.PERSON.end)).toBe("Marie Curie");
    expect(byLabel.LOC.text).toBe("Paris");
  });

  it("rephrases with the rephrase_prompt through the generative model; the extractive one keeps the query", async () => {
    llm.script = () => ({ chunks: ["radioactivity discoveries of Marie Curie"] });
    const r = await analyse({
      text: "what did she find",
      rephrase: true,
      rephrase_prompt: "Rewrite for search: {question}",
      generative_model: `openai:tiny@${llm.url}`,
    });
    expect(r.rephrased_query).toBe("radioactivity discoveries of Marie Curie");
    const sent = JSON.stringify(llm.requests.at(-1)?.messages);
    expect(sent).toContain("Rewrite for search: what did she find");
    const plain = await analyse({ text: "what did she find", rephrase: true, generative_model: "extractive" });
    expect(plain.rephrased_query).toBe("what did she find");
  });
});

describe("Predict Chat: rerank_context and citations", () => {
  const query_context = {
    weather: "It rained all week in the valley.",
    vault: "The vault opens at noon on weekdays.",
    lunch: "Lunch is served at one in the hall.",
  };

  it("scores every context, puts the best first, and cites the passages the answer rests on (JSON form)", async () => {
    const r = (await d.client.call(predict.predictChat, {
      body: {
        question: "When does the vault open?",
        query_context,
        rerank_context: true,
        citations: "default",
        generative_model: "extractive",
      },
      headers: { "x-synchronous": "true" },
    })) as Record<string, any>;
    expect(r.answer).toContain("The vault opens at noon");
    expect(r.context_scores.vault).toBe(1);
    expect(r.context_scores.vault).toBeGreaterThan(r.context_scores.weather);
    expect(Object.keys(r.citations)).toEqual(["vault"]);
    const [start, end] = r.citations.vault[0];
    expect(r.answer.slice(start, end)).toContain("vault opens at noon");
  });

  it("streams the scores first and the citations before meta", async () => {
    const chunks: any[] = [];
    for await (const line of d.client.stream(predict.predictChat, {
      body: {
        question: "When does the vault open?",
        query_context,
        rerank_context: true,
        citations: true,
        generative_model: "extractive",
      },
    }))
      chunks.push((line as { chunk: unknown }).chunk);
    expect(chunks[0]).toMatchObject({ type: "rerank", context_scores: { vault: 1 } });
    const types = chunks.map((c) => c.type);
    expect(types.indexOf("citations")).toBeLessThan(types.indexOf("meta"));
    expect(chunks.find((c) => c.type === "citations").citations).toHaveProperty("vault");
    expect(types.at(-1)).toBe("status");
  });
});

describe("learning configuration and models on the understanding API's paths", () => {
  const raw = (method: string, path: string, body?: unknown) => rawJson(d.client, method, path, body);

  it("serves the schema variants, the box's configuration, its models, and adds a model to it", async () => {
    const { HashEmbedder } = await import("../helpers/hash-embedder.js");
    d.daemon.services.models.registerEmbedder("hash16", new HashEmbedder(16));
    d.daemon.services.models.registerEmbedder("hash8", new HashEmbedder(8));
    const kb = await raw("POST", "/api/v1/kbs", { slug: "lc" });
    const kbid = kb.json.uuid;
    for (const p of ["/api/v1/learning/configuration/schema", "/api/v1/schema", `/api/v1/schema/${kbid}`]) {
      const s = await raw("GET", p);
      expect(s.status, p).toBe(200);
      expect(s.json.properties).toHaveProperty("semantic_models");
    }
    const account = (await raw("GET", "/api/authorizer/info")).json.user.account_id;
    expect((await raw("GET", `/api/v1/account/${account}/schema`)).json.properties).toHaveProperty("generative_model");
    const before = (await raw("GET", `/api/v1/config/${kbid}`)).json.semantic_models;
    expect(before).not.toContain("hash8");
    const models = await raw("GET", `/api/v1/models/${kbid}`);
    const names = Object.values(models.json.providers)
      .flat()
      .map((m: any) => m.name);
    expect(names).toContain("hash16");
    expect((await raw("GET", `/api/v1/models/${kbid}/model/hash16`)).json).toMatchObject({ name: "hash16", type: "semantic" });
    expect((await raw("GET", `/api/v1/models/${kbid}/model/nope`)).status).toBe(404);
    const added = await raw("POST", `/api/v1/models/${kbid}`, { id: "hash8" });
    expect(added.status).toBe(200);
    expect(added.json.semantic_models).toEqual([...before, "hash8"]);
    const patched = await raw("PATCH", `/api/v1/config/${kbid}`, { generative_model: "extractive" });
    expect(patched.json.generative_model).toBe("extractive");
    expect((await raw("DELETE", `/api/v1/config/${kbid}`)).status).toBe(204);
    const records = await raw("GET", `/api/v1/account/${account}/models`);
    expect(records.json).toEqual(
      expect.arrayContaining([expect.objectContaining({ model_id: "hash16", model_types: ["SEMANTIC"] })]),
    );
    const one = await raw("GET", `/api/v1/account/${account}/model/hash8`);
    expect(one.json).toMatchObject({ model_id: "hash8", kbids: [kbid], log: null });
  });
});
