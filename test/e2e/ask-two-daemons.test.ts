import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accounts from "../../src/api/accounts.js";
import * as models from "../../src/api/models.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { seedKb } from "../helpers/seed-kb.js";

// Daemon A answers with daemon B's models: B's Chat Completions generate, B's Predict Sentences embed.
let a: TestDaemon;
let b: TestDaemon;
let token: string;
const embedder = new HashEmbedder();

beforeAll(async () => {
  b = await startTestDaemon({ listen: "127.0.0.1:0", env: OFFLINE });
  b.daemon.services.models.registerEmbedder("openai:hash", embedder);
  const { id } = await b.client.call(accounts.createServiceAccount, {
    params: { account_id: "local", kb_id: "*" },
    body: { title: "daemon-a", role: "SMEMBER" },
  });
  ({ token } = await b.client.call(accounts.createServiceAccountKey, {
    params: { account_id: "local", kb_id: "*", sa_id: id },
    body: { expires: new Date(Date.now() + 86_400_000).toISOString() },
  }));
  a = await startTestDaemon({ env: OFFLINE });
  await a.client.call(models.addModel, { body: { name: "predict:b", url: b.url as string, api_key: token } });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

describe("a daemon using a second daemon's understanding API as its models", () => {
  it("embeds through B's Predict Sentences and answers through B's Chat Completions", async () => {
    const { kbid, rids } = await seedKb(a, "remote", undefined, {
      semantic_models: ["predict:b"],
      generative_model: `openai:extractive@${b.url}/api/v1/predict`,
      user_keys: { openai: { key: token } },
    });
    const embedCalls = embedder.calls;
    expect(embedCalls).toBeGreaterThan(0);
    const r = await ask(a, kbid, {
      query: "Where is the office located?",
      features: ["semantic"],
      min_score: 0.1,
      citations: true,
    });
    expect(embedder.calls).toBeGreaterThan(embedCalls);
    const answer = answerOf(r.items);
    expect(answer).toContain("Lisbon");
    const retrieval = itemOf(r.items, "retrieval")?.results;
    const first = Object.values(retrieval?.resources[rids.office]?.fields ?? {}).flatMap((f) => Object.values(f.paragraphs))[0];
    expect(first?.score_type).toBe("VECTOR");
    expect(itemOf(r.items, "metadata")?.generator).toMatchObject({ kind: "openai", model: "openai:extractive" });
    expect(Object.keys(itemOf(r.items, "citations")?.citations ?? {}).some((id) => id.startsWith(rids.office))).toBe(true);
  });

  it("B serves plain OpenAI clients: models, embeddings and non-streamed completions, with a key", async () => {
    const h = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const list = await (await fetch(`${b.url}/v1/models`, { headers: h })).json();
    expect(list.data.map((m: { id: string }) => m.id)).toContain("extractive");
    const emb = await (
      await fetch(`${b.url}/v1/embeddings`, { method: "POST", headers: h, body: JSON.stringify({ input: ["a cat", "a dog"] }) })
    ).json();
    expect(emb.data).toHaveLength(2);
    expect(emb.data[0].embedding).toHaveLength(64);
    const prompt = "Context:\nThe vault opens at noon. Lunch is at one.\n\nQuestion: When does the vault open?\nAnswer:";
    const res = await fetch(`${b.url}/v1/chat/completions`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ model: "extractive", messages: [{ role: "user", content: prompt }] }),
    });
    const done = await res.json();
    expect(done.choices[0].message.content).toBe("The vault opens at noon.");
    expect(done.usage.completion_tokens).toBeGreaterThan(0);
    expect((await fetch(`${b.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${b.url}/v1/models`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  });

  it("answers through B's Predict Chat (the remote-zone generator) and streams B's SSE completions", async () => {
    const { kbid } = await seedKb(
      a,
      "zone",
      [{ slug: "v", title: "Vault", body: "The vault opens at noon. Lunch is served at one." }],
      {
        generative_model: `predict:extractive@${b.url}`,
        user_keys: { predict: { key: token } },
      },
    );
    const r = await ask(a, kbid, { query: "When does the vault open?", features: ["keyword"] });
    expect(answerOf(r.items)).toBe("The vault opens at noon.");
    expect(itemOf(r.items, "metadata")?.generator).toMatchObject({ kind: "predict", model: "predict:extractive" });
    const h = { "x-nuclia-nuakey": `Bearer ${token}`, "content-type": "application/json" };
    const chat = await fetch(`${b.url}/api/v1/predict/chat`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({
        question: "When is lunch?",
        query_context: { p1: "The vault opens at noon. Lunch is served at one." },
      }),
    });
    expect(chat.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await chat.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).chunk);
    expect(
      lines
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join(""),
    ).toBe("Lunch is served at one.");
    expect(lines.at(-1)).toEqual({ type: "status", code: "0" });
    const sse = await fetch(`${b.url}/api/v1/predict/chat/completions`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({
        stream: true,
        messages: [
          { role: "system", content: "The vault opens at noon. Lunch is served at one." },
          { role: "user", content: "When is lunch?" },
        ],
      }),
    });
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    const events = (await sse.text())
      .split("\n\n")
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ""));
    expect(events.at(-1)).toBe("[DONE]");
    const text = events
      .slice(0, -1)
      .map((e) => JSON.parse(e))
      .map((e) => e.choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe("Lunch is served at one.");
    const q = await (
      await fetch(`${b.url}/api/v1/predict/query`, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ text: "where is the cat" }),
      })
    ).json();
    expect(q.query).toBe("where is the cat");
    expect(q.sentence.data).toHaveLength(64);
  });

  it("reports B going away as an error item while A keeps serving", async () => {
    const { kbid } = await seedKb(a, "remote2", [{ slug: "x", title: "X", body: "The vault opens at noon." }], {
      generative_model: "openai:extractive@http://127.0.0.1:9/v1",
    });
    const r = await ask(a, kbid, { query: "When does the vault open?", features: ["keyword"] });
    expect(itemOf(r.items, "error")?.error).toMatch(/cannot reach model endpoint/);
    expect(r.items.at(-1)).toMatchObject({ type: "status", code: "-1" });
    const ok = await ask(a, kbid, { query: "When does the vault open?", features: ["keyword"], generative_model: "extractive" });
    expect(answerOf(ok.items)).toBe("The vault opens at noon.");
  });
});
