import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { answerOf, ask, itemOf, paragraphWith } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let kbid: string;
let rids: Record<string, string>;
beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "models", undefined, {
    generative_model: "openai:tiny-chat",
    user_keys: { openai: { url: llm.url, key: "sk-test" } },
  }));
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

describe("ask with an OpenAI-compatible endpoint", () => {
  it("streams the endpoint's chunks and sends it the prompt, seed and max_tokens", async () => {
    llm.script = () => ({ chunks: ["The team ships ", "every Friday ", "afternoon."], reasoning: ["Looking at the context."] });
    const r = await ask(d, kbid, {
      query: "When does the team ship?",
      features: ["keyword"],
      generative_model_seed: 7,
      max_tokens: 64,
      reasoning: true,
      citations: true,
    });
    expect(r.items.slice(0, 4).map((i) => i.type)).toEqual(["reasoning", "answer", "answer", "answer"]);
    expect(answerOf(r.items)).toBe("The team ships every Friday afternoon.");
    const sent = llm.requests.at(-1) as any;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent).toMatchObject({ model: "tiny-chat", stream: true, seed: 7, max_tokens: 64 });
    expect(sent.messages[0].role).toBe("system");
    expect(sent.messages.at(-1).content).toContain("every Friday afternoon");
    expect(sent.messages.at(-1).content).toContain("When does the team ship?");
    const friday = paragraphWith(r.items, "every Friday") as string;
    expect(Object.keys(itemOf(r.items, "citations")?.citations ?? {})).toContain(friday);
    expect(itemOf(r.items, "metadata")).toMatchObject({
      tokens: { input: 11, output: 3 },
      generator: { kind: "openai", extractive: false },
    });
  });

  it("uses structured output for answer_json_schema and returns answer_json", async () => {
    llm.script = () => ({ chunks: ['{"day": "Fri', 'day", "confident": true}'] });
    const schema = {
      name: "release_day",
      description: "the day",
      parameters: { type: "object", properties: { day: { type: "string" }, confident: { type: "boolean" } }, required: ["day"] },
    };
    const r = await ask(d, kbid, { query: "Which day do releases ship?", features: ["keyword"], answer_json_schema: schema });
    expect(itemOf(r.items, "answer_json")?.object).toEqual({ day: "Friday", confident: true });
    expect(answerOf(r.items)).toBe("");
    expect((llm.requests.at(-1) as any).response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "release_day", description: "the day", schema: schema.parameters },
    });
    const s = await ask(
      d,
      kbid,
      { query: "Which day?", features: ["keyword"], answer_json_schema: schema },
      { "x-synchronous": "true" },
    );
    expect((s.json as any).answer_json).toEqual({ day: "Friday", confident: true });
  });

  it("reports a model that fails mid-stream as an error item, and the daemon keeps serving", async () => {
    llm.script = () => ({ chunks: ["Partial ", "answer ", "never ", "finished"], failAfter: 2 });
    const r = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] });
    expect(r.status).toBe(200);
    expect(answerOf(r.items)).toBe("Partial answer ");
    const err = itemOf(r.items, "error");
    expect(err?.error).toMatch(/model stream failed|terminated|socket/i);
    expect(r.items.at(-1)).toMatchObject({ type: "status", code: "-1", status: "error" });
    llm.script = () => ({ chunks: [], status: 500 });
    const refused = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] }, { "x-synchronous": "true" });
    expect((refused.json as any).status).toBe("error");
    expect((refused.json as any).error_details).toMatch(/answered 500/);
    llm.script = () => ({ chunks: ["Back to normal."] });
    expect(answerOf((await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] })).items)).toBe(
      "Back to normal.",
    );
  });

  it("cancels generation when the client disconnects mid-stream", async () => {
    llm.script = () => ({ chunks: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 });
    const before = llm.aborted;
    const ac = new AbortController();
    const res = await d.client.raw({
      method: "POST",
      path: `/api/v1/kb/${kbid}/ask`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "When does the team ship?", features: ["keyword"] }),
      signal: ac.signal,
    });
    let got = "";
    await new Promise<void>((resolve) => {
      res.body.on("data", (c: Buffer) => {
        got += c.toString();
        if (got.split("\n").length > 3) {
          ac.abort();
          resolve();
        }
      });
      res.body.on("error", () => resolve());
    });
    const until = Date.now() + 5000;
    while (llm.aborted === before && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(llm.aborted).toBe(before + 1);
    llm.script = () => ({ chunks: ["Still fine."] });
    expect(answerOf((await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] })).items)).toBe(
      "Still fine.",
    );
  });

  it("picks the model per request over the KB's", async () => {
    const r = await ask(d, kbid, {
      query: "Where is the office located?",
      features: ["keyword"],
      generative_model: "extractive",
    });
    expect(answerOf(r.items)).toContain("Lisbon");
    expect(itemOf(r.items, "metadata")?.generator?.extractive).toBe(true);
    const n = llm.requests.length;
    await d.client.call(kbs.updateKb, { params: { kbid }, body: { title: "still openai" } });
    llm.script = () => ({ chunks: ["ok"] });
    await ask(d, kbid, { query: "office", features: ["keyword"], generative_model: `openai:other-model@${llm.url}` });
    expect(llm.requests.length).toBe(n + 1);
    expect((llm.requests.at(-1) as any).model).toBe("other-model");
    expect(rids.office).toMatch(/^[0-9a-f]{32}$/);
  });
});
