import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, rawJson, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";

// The remaining predict operations of the understanding API on kbox's models: summarize, rerank,
// rephrase, REMi, sentence, tokens of a box, and the /predict/compat/* paths.
let d: TestDaemon;
let llm: OpenAiStandIn;
let model: string;

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  model = `openai:tiny@${llm.url}`;
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" } });
  d.daemon.services.models.registerEmbedder("hash16", new HashEmbedder(16));
});
afterAll(async () => {
  await d.stop();
  await llm.stop();
});

const call = (method: string, path: string, body?: unknown) => rawJson(d.client, method, path, body);

const doc =
  "The lighthouse was built in 1870 on the northern cape. Its keeper lit the lamp every evening at dusk. " +
  "Storms damaged the tower in 1921, and it was rebuilt in stone. Today the lighthouse is a museum open in summer.";

describe("predict summarize", () => {
  it("summarizes extractively with the extractive model, and through the generative model otherwise", async () => {
    const body = { resources: { r1: { fields: { "t/body": doc } }, r2: { fields: { "t/x": "Bees make honey in hives." } } } };
    const ex = await call("POST", "/api/v1/predict/summarize", { ...body, generative_model: "extractive" });
    expect(ex.status).toBe(200);
    expect(ex.json.model).toBe("extractive");
    expect(doc).toContain(ex.json.resources.r1.summary.split(". ")[0]);
    expect(ex.json.resources.r1.tokens).toBeGreaterThan(10);
    expect(ex.json.resources.r2.summary).toContain("honey");
    // The overall summary is the extractive summary of the resources' summaries.
    expect(ex.json.summary.length).toBeGreaterThan(0);
    expect(`${ex.json.resources.r1.summary} ${ex.json.resources.r2.summary}`).toContain(ex.json.summary.split(". ")[0]);
    llm.script = () => ({ chunks: ["A lighthouse from 1870, now a museum."] });
    const gen = await call("POST", `/api/v1/predict/summarize?model=${encodeURIComponent(model)}`, {
      resources: { r1: { fields: { "t/body": doc } } },
      user_prompt: "Summarize in one line.",
    });
    expect(gen.json).toMatchObject({ summary: "A lighthouse from 1870, now a museum.", model: "openai:tiny" });
    expect(JSON.stringify(llm.requests.at(-1)?.messages)).toContain("Summarize in one line.");
  });
});

describe("predict rerank", () => {
  it("scores passages by term overlap when no reranker is installed", async () => {
    const r = await call("POST", "/api/v1/predict/rerank", {
      question: "When was the lighthouse built?",
      user_id: "u",
      context: { a: "The lighthouse was built in 1870.", b: "Bees make honey." },
    });
    expect(r.status).toBe(200);
    expect(r.json.context_scores.a).toBeGreaterThan(r.json.context_scores.b);
    expect(r.json.context_scores.b).toBe(0);
  });
});

describe("predict rephrase", () => {
  const history = [
    { author: "USER", text: "Tell me about the lighthouse on the northern cape" },
    { author: "NUCLIA", text: "It was built in 1870." },
  ];
  it("adds the history's topic words offline, and asks the generative model otherwise", async () => {
    const off = await call("POST", "/api/v1/predict/rephrase", { question: "when was it rebuilt?", chat_history: history });
    expect(off.status).toBe(200);
    expect(off.json).toMatch(/^when was it rebuilt .*lighthouse/);
    llm.script = () => ({ chunks: ['"When was the northern cape lighthouse rebuilt?"'] });
    const on = await call("POST", "/api/v1/predict/rephrase", {
      question: "when was it rebuilt?",
      chat_history: history,
      generative_model: model,
      prompt: "Standalone: {question}",
    });
    expect(on.json).toBe("When was the northern cape lighthouse rebuilt?");
    expect(JSON.stringify(llm.requests.at(-1)?.messages)).toContain("Standalone: when was it rebuilt?");
    const kept = await call("POST", "/api/v1/predict/rephrase", {
      question: "How do I bake bread?",
      chat_history: history,
      chat_history_relevance_threshold: 0.5,
    });
    expect(kept.json).toBe("How do I bake bread?");
  });
});

describe("REMi", () => {
  it("scores answer relevance, context relevance and groundedness 0..5", async () => {
    const r = await call("POST", "/api/v1/predict/remi", {
      user_id: "u",
      question: "When was the lighthouse built?",
      answer: "The lighthouse was built in 1870.",
      contexts: ["The lighthouse was built in 1870 on the cape.", "Bees make honey."],
    });
    expect(r.status).toBe(200);
    expect(r.json.answer_relevance.score).toBe(5);
    expect(r.json.answer_relevance.reason).toContain("offline");
    expect(r.json.context_relevance).toEqual([5, 0]);
    expect(r.json.groundedness[0]).toBe(5);
    expect(r.json.groundedness[1]).toBe(0);
  });
});

describe("sentence, tokens of a box, compat paths", () => {
  it("answers vectors, box tokens and the compat aliases", async () => {
    const one = await call("GET", "/api/v1/predict/sentence?text=hello%20world&model=hash16");
    expect(one.status).toBe(200);
    expect(one.json.data).toHaveLength(16);
    const again = await call("POST", "/api/v1/predict/compat/embeddings", { input: "hello world", model: "hash16" });
    expect(one.json.data).toEqual(again.json.data[0].embedding);
    expect(one.json.model).toBe(again.json.model);
    const kb = await call("POST", "/api/v1/kbs", { slug: "ops", learning_configuration: { semantic_models: ["hash16"] } });
    const byKb = await call("GET", `/api/v1/predict/sentence/${kb.json.uuid}?text=hello`);
    expect(byKb.status).toBe(200);
    expect(Object.values(byKb.json.vectors)[0]).toHaveLength(16);
    const tokens = await call(
      "GET",
      `/api/v1/predict/tokens/${kb.json.uuid}?text=${encodeURIComponent("Marie Curie lived in Paris")}`,
    );
    expect(tokens.json.tokens.map((t: any) => t.text)).toEqual(expect.arrayContaining(["Marie Curie", "Paris"]));
    expect((await call("GET", "/api/v1/predict/compat/models")).json.object).toBe("list");
    const emb = await call("POST", "/api/v1/predict/compat/embeddings", { input: ["a b"], model: "hash16" });
    expect(emb.json.data[0].embedding).toHaveLength(16);
    llm.script = () => ({ chunks: ["pong"] });
    const chat = await call("POST", "/api/v1/predict/compat/chat/completions", {
      model,
      messages: [{ role: "user", content: "ping" }],
    });
    expect(chat.json.choices[0].message.content).toBe("pong");
    expect((await call("GET", "/api/v1/predict/sentence/nope?text=x")).status).toBe(404);
  });
});

describe("kbox predict summarize | rerank | rephrase | remi", () => {
  it("drive the new operations from the CLI", async () => {
    const ok = async (args: string[]) => {
      const r = await d.cli(args);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await ok(["predict", "summarize", "Bees make honey in hives. They fly far.", "--model", "extractive"])).toContain(
      "Bees make honey",
    );
    const ranked = (await ok(["predict", "rerank", "when does the vault open", "Bees make honey.", "The vault opens at noon."]))
      .trim()
      .split("\n");
    expect(ranked[0]).toMatch(/^p2\t/);
    expect(await ok(["predict", "rephrase", "when was it rebuilt?", "-u", "tell me about the lighthouse"])).toContain(
      "lighthouse",
    );
    const remi = JSON.parse(
      await ok(["predict", "remi", "When does the vault open?", "At noon.", "-c", "The vault opens at noon.", "--json"]),
    );
    expect(remi.context_relevance).toEqual([5]);
    expect((await d.cli(["predict", "rerank", "q"])).code).toBe(2);
  });
});
