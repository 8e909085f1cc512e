import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentic from "../../src/api/agentic-configs.js";
import { ApiError } from "../../src/client/errors.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let kbid: string;
let rids: Record<string, string>;
const REPHRASE = "REPHRASE-7: turn this into a search query about the office:";
const SYSTEM = "SYS-9: answer in one short sentence.";

beforeAll(async () => {
  llm = await OpenAiStandIn.start();
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "agentic", undefined, {
    generative_model: "openai:answerer",
    user_keys: { openai: { url: llm.url, key: "sk-test" } },
  }));
  // The rephrasing call gets a query back; every other call an answer.
  llm.script = (body) =>
    String(body.messages.at(-1)?.content).startsWith("REPHRASE-7")
      ? { chunks: ['"office ', 'opening hours"'] }
      : { chunks: ["It opens ", "at 8:30."] };
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

const params = (agentic_id: string) => ({ kbid, agentic_id });
async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

describe("agentic configurations", () => {
  it("are created, read, listed, updated and deleted per knowledge box", async () => {
    const c = d.client;
    const body = {
      title: "Support",
      rephrase: {
        prompt: "Rewrite: {question}",
        model: { _type: "llm_config" as const, model_id: "openai:rephraser" },
        history: null,
      },
      summarize: { system_prompt: "Be brief." },
    };
    await c.call(agentic.createAgenticConfig, { params: params("support"), body });
    expect(await statusOf(c.call(agentic.createAgenticConfig, { params: params("support"), body }))).toBe(409);
    // Nulls are omitted.
    expect(await c.call(agentic.getAgenticConfig, { params: params("support") })).toEqual({
      title: "Support",
      rephrase: { prompt: "Rewrite: {question}", model: { _type: "llm_config", model_id: "openai:rephraser" } },
      summarize: { system_prompt: "Be brief." },
    });
    await c.call(agentic.updateAgenticConfig, {
      params: params("support"),
      body: { summarize: { user_prompt: "{question}" }, title: null },
    });
    expect(await c.call(agentic.listAgenticConfigs, { params: { kbid } })).toEqual({
      support: {
        rephrase: { prompt: "Rewrite: {question}", model: { _type: "llm_config", model_id: "openai:rephraser" } },
        summarize: { user_prompt: "{question}" },
      },
    });
    await c.call(agentic.deleteAgenticConfig, { params: params("support") });
    expect(await statusOf(c.call(agentic.getAgenticConfig, { params: params("support") }))).toBe(404);
    expect(await statusOf(c.call(agentic.updateAgenticConfig, { params: params("support"), body: {} }))).toBe(404);
  });

  it("refuses a model kbox cannot resolve and sources it does not know (422, located)", async () => {
    const bad = await d.client
      .call(agentic.createAgenticConfig, {
        params: params("bad"),
        body: { summarize: { model: { _type: "llm_config", model_id: "no-such-model" } } },
      })
      .catch((e) => e);
    expect(bad.status).toBe(422);
    expect(bad.detail[0].loc).toEqual(["body", "summarize", "model", "model_id"]);
    const src = await d.client
      .call(agentic.createAgenticConfig, { params: params("bad"), body: { smart_agent: { sources: ["web"] } } })
      .catch((e) => e);
    expect(src.status).toBe(422);
    expect(src.detail[0].loc).toEqual(["body", "smart_agent", "sources", 0]);
  });

  it("applies to an ask that names it: the rephrase prompt and model, the system prompt and answer model", async () => {
    await d.client.call(agentic.createAgenticConfig, {
      params: params("office"),
      body: {
        rephrase: { prompt: `${REPHRASE} {question}`, model: { _type: "llm_config", model_id: "openai:rephraser" } },
        summarize: { system_prompt: SYSTEM, model: { _type: "llm_config", model_id: "openai:writer" } },
      },
    });
    const before = llm.requests.length;
    const r = await ask(d, kbid, {
      query: "When can I come in?",
      features: ["keyword"],
      generative_model: "openai:ignored",
      agentic_config_id: "office",
    });
    const sent = llm.requests.slice(before) as Record<string, any>[];
    // First the configuration's rephrase prompt, to its model, with the question filled in.
    expect(sent[0].model).toBe("rephraser");
    expect(sent[0].messages.at(-1).content).toBe(`${REPHRASE} When can I come in?`);
    // Retrieval used the model's query; the answer went to the configuration's model with its system prompt.
    const retrieval = itemOf(r.items, "retrieval")?.results;
    expect(retrieval?.rephrased_query).toBe("office opening hours");
    expect(Object.keys(retrieval?.resources ?? {})).toContain(rids.office);
    expect(sent[1].model).toBe("writer");
    expect(sent[1].messages[0].content).toContain(SYSTEM);
    expect(sent[1].messages.at(-1).content).toContain("It opens at 8:30 every morning");
    expect(answerOf(r.items)).toBe("It opens at 8:30.");

    // Without the configuration: no rephrasing call, the request's own model.
    const n = llm.requests.length;
    await ask(d, kbid, { query: "When does the office open?", features: ["keyword"], generative_model: "openai:plain" });
    expect((llm.requests.slice(n) as Record<string, any>[]).map((q) => q.model)).toEqual(["plain"]);
  });

  it("shows the chat history to the rephrasing model, and keeps it from the answer when summarize.history is false", async () => {
    await d.client.call(agentic.createAgenticConfig, {
      params: params("private"),
      body: { rephrase: { prompt: `${REPHRASE} {question}` }, summarize: { history: false } },
    });
    const before = llm.requests.length;
    const chat_history = [
      { author: "USER" as const, text: "Tell me about the office in Lisbon." },
      { author: "NUCLIA" as const, text: "It is on Rua Augusta." },
    ];
    await ask(d, kbid, { query: "When does it open?", features: ["keyword"], chat_history, agentic_config_id: "private" });
    const [rephrase, answer] = llm.requests.slice(before) as Record<string, any>[];
    expect(rephrase.messages.map((m: { content: string }) => m.content)).toEqual([
      "Tell me about the office in Lisbon.",
      "It is on Rua Augusta.",
      `${REPHRASE} When does it open?`,
    ]);
    expect(JSON.stringify(answer.messages)).not.toContain("Tell me about the office in Lisbon.");
  });

  it("answers 400 to an ask naming a configuration that does not exist", async () => {
    const r = await ask(d, kbid, { query: "anything", agentic_config_id: "nope" });
    expect(r.status).toBe(400);
  });

  it("is managed from the CLI, and kbox ask --agentic-config applies it", async () => {
    const made = await d.cli([
      "kb",
      "agentic-config",
      "create",
      "cli",
      "--kb",
      "agentic",
      "--title",
      "From the CLI",
      "--rephrase-prompt",
      `${REPHRASE} {question}`,
      "--system-prompt",
      SYSTEM,
    ]);
    expect(made).toMatchObject({ code: 0, stdout: "" });
    const shown = await d.cli(["kb", "agentic-config", "show", "cli", "--kb", "agentic"]);
    expect(JSON.parse(shown.stdout)).toEqual({
      title: "From the CLI",
      rephrase: { prompt: `${REPHRASE} {question}` },
      summarize: { system_prompt: SYSTEM },
    });
    const listed = await d.cli(["kb", "agentic-config", "list", "--kb", "agentic"]);
    expect(listed.stdout).toMatch(/^cli\tFrom the CLI\trephrase,summarize$/m);
    const usage = await d.cli(["kb", "agentic-config", "update", "cli", "--kb", "agentic"]);
    expect(usage.code).toBe(2);
    const before = llm.requests.length;
    const asked = await d.cli([
      "ask",
      "When can I come in?",
      "--kb",
      "agentic",
      "--features",
      "keyword",
      "--agentic-config",
      "cli",
    ]);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain("It opens at 8:30.");
    expect((llm.requests[before] as Record<string, any>).messages.at(-1).content).toBe(`${REPHRASE} When can I come in?`);
    expect((await d.cli(["kb", "agentic-config", "delete", "cli", "--kb", "agentic"])).code).toBe(0);
  });
});
