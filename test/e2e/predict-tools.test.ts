import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as predict from "../../src/api/predict.js";
import { OFFLINE, rawJson, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";

// Predict Chat's tools/tool_choice: passed to an OpenAI-compatible model, its calls returned; the
// extractive model cannot call tools.
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

const weather = {
  name: "get_weather",
  description: "The weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("Predict Chat tools", () => {
  it("passes tools and a forced choice to the model and streams its calls as a tools chunk", async () => {
    llm.script = () => ({ chunks: [], toolCalls: [{ name: "get_weather", arguments: { city: "Lyon" } }] });
    const chunks: any[] = [];
    for await (const line of d.client.stream(predict.predictChat, {
      body: {
        question: "What is the weather in Lyon?",
        generative_model: `openai:tiny@${llm.url}`,
        tools: [weather],
        tool_choice: { type: "forced", name: "get_weather" },
      },
    }))
      chunks.push((line as { chunk: unknown }).chunk);
    const sent = llm.requests.at(-1) as Record<string, any>;
    expect(sent.tools).toEqual([{ type: "function", function: weather }]);
    expect(sent.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    const tools = chunks.find((c) => c.type === "tools");
    expect(tools.tools.get_weather).toEqual([
      { id: "call_0", type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon"}' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: "status", code: "0" });
  });

  it("sends the tool turns of the history back to the model and answers in text (JSON form)", async () => {
    llm.script = () => ({ chunks: ["It is sunny in Lyon."] });
    const r = (await d.client.call(predict.predictChat, {
      body: {
        question: "What is the weather in Lyon?",
        generative_model: `openai:tiny@${llm.url}`,
        tools: [weather],
        tool_choice: { type: "auto" },
        chat_history: [
          { author: "USER", text: "What is the weather in Lyon?" },
          {
            type: "assistant",
            content: "",
            tool_calls: [{ id: "call_0", type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon"}' } }],
          },
          { type: "tool", tool_call_id: "call_0", name: "get_weather", content: '{"sky":"sunny"}' },
        ],
      },
      headers: { "x-synchronous": "true" },
    })) as Record<string, any>;
    expect(r.answer).toBe("It is sunny in Lyon.");
    expect(r.tools).toBeUndefined();
    const messages = (llm.requests.at(-1) as Record<string, any>).messages;
    expect(messages[2]).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_0" }] });
    expect(messages[3]).toEqual({ role: "tool", content: '{"sky":"sunny"}', tool_call_id: "call_0", name: "get_weather" });
    expect((llm.requests.at(-1) as Record<string, any>).tool_choice).toBe("auto");
  });

  it("the extractive model: 400 for a required or forced choice, a text answer with auto", async () => {
    const body = {
      question: "When does the vault open?",
      query_context: { vault: "The vault opens at noon." },
      generative_model: "extractive",
      tools: [weather],
    };
    const res = await rawJson(
      d.client,
      "POST",
      "/api/v1/predict/chat",
      { ...body, tool_choice: { type: "required" } },
      {
        "x-synchronous": "true",
      },
    );
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain("cannot call tools");
    const r = (await d.client.call(predict.predictChat, {
      body: { ...body, tool_choice: { type: "auto" } },
      headers: { "x-synchronous": "true" },
    })) as Record<string, any>;
    expect(r.answer).toContain("noon");
  });

  it("a forced choice without a name is 422", async () => {
    const res = await d.client.raw({
      method: "POST",
      path: "/api/v1/predict/chat",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "q", tools: [weather], tool_choice: { type: "forced" } }),
    });
    for await (const _ of res.body);
    expect(res.status).toBe(422);
  });
});

describe("Chat Completions tools", () => {
  it("passes tools through and answers tool_calls, streamed and not", async () => {
    llm.script = () => ({ chunks: [], toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
    const body = {
      model: `openai:tiny@${llm.url}`,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools: [{ type: "function", function: weather }],
      tool_choice: "required",
    };
    const one = (await d.client.call(predict.chatCompletions, { body, headers: {} })) as Record<string, any>;
    expect(one.choices[0].finish_reason).toBe("tool_calls");
    expect(one.choices[0].message.tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city":"Oslo"}' });
    expect((llm.requests.at(-1) as Record<string, any>).tool_choice).toBe("required");
    const chunks: any[] = [];
    for await (const c of d.client.stream(predict.chatCompletions, { body: { ...body, stream: true }, headers: {} }))
      chunks.push(c);
    const calls = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "call_0", function: { name: "get_weather" } });
    expect(chunks.some((c) => c.choices?.[0]?.finish_reason === "tool_calls")).toBe(true);
  });
});
