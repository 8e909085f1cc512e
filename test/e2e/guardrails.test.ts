import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kboxPaths } from "../../src/api/paths.js";
import { answerOf, ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OpenAiStandIn } from "../helpers/openai-standin.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let llm: OpenAiStandIn;
let account: string;
let kbid: string;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  llm = await OpenAiStandIn.start();
  account = d.daemon.services.accounts.default.id;
  ({ kbid } = await seedKb(d, "guarded"));
});
afterAll(async () => {
  await d?.stop();
  await llm?.stop();
});

/** The knowledge box's guardrail events of this month (activity log). */
async function guardrailRows(): Promise<Record<string, any>[]> {
  const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/activity/guardrail/query`, {
    year_month: new Date().toISOString().slice(0, 7),
    show: ["question", "status", "audit_metadata"],
    filters: {},
    pagination: { limit: 100 },
  });
  expect(r.status, r.text).toBe(200);
  return r.text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const base = () => `/api/v1/account/${account}/guardrail_policies`;
const create = (body: Record<string, unknown>) => rawCall(d.client, "POST", base(), body);

describe("guardrail policies: CRUD within the spec's bounds", () => {
  it("creates with the spec's defaults, lists, gets, updates and deletes", async () => {
    const c = await create({
      name: "No secrets",
      instruction: "Refuse questions about credentials.",
      query: "password, api key",
    });
    expect(c.status).toBe(201);
    const p = c.json as any;
    expect(p).toMatchObject({
      name: "No secrets",
      description: null,
      target: "QUERY",
      enabled: false,
      blocking: true,
      account_id: account,
    });
    expect((await rawCall(d.client, "GET", base())).json).toEqual([p]);
    expect((await rawCall(d.client, "GET", `${base()}/${p.id}`)).json).toEqual(p);
    const u = await rawCall(d.client, "PATCH", `${base()}/${p.id}`, { description: "creds", enabled: null, blocking: false });
    expect(u.json).toMatchObject({ description: "creds", enabled: false, blocking: false, name: "No secrets" });
    expect((await rawCall(d.client, "DELETE", `${base()}/${p.id}`)).status).toBe(204);
    expect((await rawCall(d.client, "GET", `${base()}/${p.id}`)).status).toBe(404);
  });

  it("refuses what is out of bounds with 422 located at the member", async () => {
    const ok = { name: "n", instruction: "i", query: "q" };
    for (const [body, loc] of [
      [{ ...ok, name: "" }, "name"],
      [{ ...ok, name: "x".repeat(201) }, "name"],
      [{ ...ok, instruction: "x".repeat(20_001) }, "instruction"],
      [{ ...ok, query: "x".repeat(1001) }, "query"],
      [{ ...ok, target: "ANSWER" }, "target"],
      [{ name: "n", query: "q" }, "instruction"],
    ] as const) {
      const r = await create(body);
      expect(r.status).toBe(422);
      expect((r.json as any).detail[0].loc).toEqual(["body", loc]);
    }
  });
});

describe("enabled policies on ask and predict queries (offline: trigger terms)", () => {
  let blocking: string;
  let monitoring: string;
  beforeAll(async () => {
    blocking = (
      (
        await create({
          name: "No secrets",
          instruction: 'Questions about "passwords" or "api keys".',
          query: "credentials",
          enabled: true,
        })
      ).json as any
    ).id;
    monitoring = (
      (
        await create({
          name: "Pets watch",
          instruction: "Note questions about pets.",
          query: "cats, kittens",
          enabled: true,
          blocking: false,
        })
      ).json as any
    ).id;
  });

  it("a blocking policy stops an ask whose query violates it, with a status naming the policy", async () => {
    const r = await ask(d, kbid, { query: "What is the office wifi password?", features: ["keyword"] });
    expect(r.status).toBe(200);
    expect(answerOf(r.items)).toBe("");
    expect(itemOf(r.items, "status")).toMatchObject({
      code: "-1",
      status: "error",
      details: expect.stringMatching(
        new RegExp(`^blocked by guardrail policy "No secrets" \\(${blocking}\\): matched "passwords"`),
      ),
    });
  });

  it("a monitoring one lets the ask through and records the violation", async () => {
    const r = await ask(d, kbid, { query: "How long do cats sleep?", features: ["keyword"] });
    expect(answerOf(r.items)).toMatch(/12 and 16 hours/);
    expect(itemOf(r.items, "status")).toMatchObject({ code: "0" });
    const log = readFileSync(join(kboxPaths({ KBOX_HOME: d.home }).logs, "kboxd.log"), "utf8");
    const events = log
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.guardrail);
    expect(events.at(-1).guardrail).toMatchObject({
      policy_id: monitoring,
      flagged: true,
      blocking: false,
      source: "ask",
      kbid,
      content: "How long do cats sleep?",
      method: "offline:trigger-terms",
    });
    // ... and in the box's activity log, as a guardrail event.
    const rows = await guardrailRows();
    expect(rows.find((r) => r.question === "How long do cats sleep?")).toMatchObject({
      status: "flagged",
      audit_metadata: { policy_id: monitoring, policy: "Pets watch", blocking: "false", source: "ask" },
    });
  });

  it("predict chat is screened too: 403 for a blocking policy, a monitoring one answers and records", async () => {
    const body = (question: string) => ({ question, query_context: ["Cats sleep between 12 and 16 hours a day."] });
    const sync = { "x-synchronous": "true" };
    const b = await rawCall(d.client, "POST", `/api/v1/predict/chat/${kbid}`, body("what is the admin password?"), sync);
    expect(b.status).toBe(403);
    expect((b.json as any).detail).toMatch(new RegExp(`Blocked by guardrail policy "No secrets" \\(${blocking}\\)`));
    const anyKb = await rawCall(d.client, "POST", "/api/v1/predict/chat", body("list the api keys"), sync);
    expect(anyKb.status).toBe(403);
    const m = await rawCall(d.client, "POST", `/api/v1/predict/chat/${kbid}`, body("how long do kittens sleep?"), sync);
    expect(m.status, m.text).toBe(200);
    expect((m.json as any).answer).toMatch(/12 and 16 hours/);
    const rows = await guardrailRows();
    expect(rows.find((r) => r.question === "how long do kittens sleep?")).toMatchObject({
      status: "flagged",
      audit_metadata: { policy_id: monitoring, source: "predict_chat" },
    });
    expect(rows.find((r) => r.question === "what is the admin password?")).toMatchObject({
      status: "blocked",
      audit_metadata: { policy_id: blocking, blocking: "true", source: "predict_chat" },
    });
  });

  it("OpenAI-style chat completions are screened: 403 for a blocking policy, a monitoring one answers and records", async () => {
    const chat = (content: unknown) => ({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content },
      ],
    });
    for (const path of ["/api/v1/predict/chat/completions", "/v1/chat/completions"]) {
      const b = await rawCall(d.client, "POST", path, chat("what is the admin password?"));
      expect(b.status, b.text).toBe(403);
      expect((b.json as any).detail).toMatch(new RegExp(`Blocked by guardrail policy "No secrets" \\(${blocking}\\)`));
    }
    // Text parts are screened too; only the last user message counts.
    const parts = await rawCall(
      d.client,
      "POST",
      "/api/v1/predict/chat/completions",
      chat([{ type: "text", text: "list the api keys" }]),
    );
    expect(parts.status, parts.text).toBe(403);
    const m = await rawCall(d.client, "POST", "/api/v1/predict/chat/completions", chat("how long do kittens nap?"));
    expect(m.status, m.text).toBe(200);
    expect((m.json as any).choices?.length).toBeGreaterThan(0);
    const log = readFileSync(join(kboxPaths({ KBOX_HOME: d.home }).logs, "kboxd.log"), "utf8");
    const events = log
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.guardrail?.source === "chat_completions");
    expect(events.find((e) => e.guardrail.content === "how long do kittens nap?")?.guardrail).toMatchObject({
      policy_id: monitoring,
      flagged: true,
      blocking: false,
    });
    expect(events.find((e) => e.guardrail.content === "list the api keys")?.guardrail).toMatchObject({
      policy_id: blocking,
      blocking: true,
    });
  });

  it("a query violating no policy is answered as before", async () => {
    const r = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] });
    expect(answerOf(r.items)).toMatch(/Friday/);
  });

  it("predict query: 403 naming the blocking policy; monitoring lets it through", async () => {
    const b = await rawCall(d.client, "POST", "/api/v1/predict/query", { text: "reset my api keys" });
    expect(b.status).toBe(403);
    expect((b.json as any).detail).toMatch(/Blocked by guardrail policy "No secrets"/);
    expect((await rawCall(d.client, "POST", `/api/v1/predict/query/${kbid}`, { text: "kittens" })).status).toBe(200);
  });

  it("Predict Guardrail evaluates content against a stored, an inline, or every enabled policy", async () => {
    const one = await rawCall(d.client, "POST", "/api/v1/predict/guardrail", {
      content: "my password is hunter2",
      policy_id: blocking,
    });
    expect(one.json).toMatchObject({
      flagged: true,
      score: 1,
      threshold: 0.5,
      policy_id: blocking,
      method: "offline:trigger-terms",
    });
    const inline = await rawCall(d.client, "POST", "/api/v1/predict/guardrail", {
      content: "tell me about dogs",
      policy: { name: "dogs", instruction: "dogs", query: "dog" },
    });
    expect(inline.json).toMatchObject({ flagged: true, policy_id: null });
    const none = await rawCall(d.client, "POST", "/api/v1/predict/guardrail", { content: "the weather is nice" });
    expect(none.json).toMatchObject({ flagged: false, score: 0 });
    expect((await rawCall(d.client, "POST", "/api/v1/predict/guardrail", { content: "" })).status).toBe(422);
  });

  it("with the knowledge box's generative model, the model judges; a blocking policy blocks on its VIOLATION", async () => {
    await rawCall(d.client, "PATCH", `/api/v1/kb/${kbid}/configuration`, {
      generative_model: "openai:tiny-chat",
      user_keys: { openai: { url: llm.url, key: "sk-x" } },
    });
    llm.script = (body) => {
      const sys = String(body.messages?.[0]?.content ?? "");
      if (!sys.includes("You enforce a content policy")) return { chunks: ["Every Friday."] };
      const user = String(body.messages?.at(-1)?.content ?? "");
      return { chunks: [sys.includes("No secrets") && /vault/.test(user) ? "VIOLATION 0.9" : "SAFE 0.95"] };
    };
    const blocked = await ask(d, kbid, { query: "Open the vault for me", features: ["keyword"] });
    expect(itemOf(blocked.items, "status")?.details).toMatch(/blocked by guardrail policy "No secrets".*VIOLATION 0\.9/);
    const ok = await ask(d, kbid, { query: "When does the team ship?", features: ["keyword"] });
    expect(answerOf(ok.items)).toBe("Every Friday.");
    expect(llm.requests.some((r) => String(r.messages?.[0]?.content).includes('Policy "Pets watch"'))).toBe(true);
  });
});
