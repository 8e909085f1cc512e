import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { ask } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { CORPUS } from "../helpers/seed-kb.js";

// 50 mixed operations through the real daemon, then every event type read back with every operator.
let d: TestDaemon;
let kbid: string;
const rids: string[] = [];
const learningIds: string[] = [];
const askUsers: string[] = [];
const QUESTIONS = [
  "When does the team ship a release?",
  "Where is the office located?",
  "How long do cats sleep?",
  "Why do cats purr?",
  "Who writes the release notes?",
];

type Row = Record<string, unknown>;

async function query(event: string, body: Record<string, unknown>): Promise<{ rows: Row[]; more: string | undefined }> {
  const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/activity/${event}/query`, body);
  expect(r.status, r.text).toBe(200);
  const rows = r.text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
  return { rows, more: r.headers["has-more"] as string | undefined };
}

const month = () => new Date().toISOString().slice(0, 7);
const all = async (event: string, filters: Record<string, unknown> = {}, show: unknown = "all") =>
  (await query(event, { year_month: month(), filters, show, pagination: { limit: 1000 } })).rows;

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "activity" } })).uuid;
  // 10 adds (the corpus's three documents and seven small notes), from the web client.
  const docs = [...CORPUS.map((c) => ({ title: c.title, body: c.body }))];
  for (let i = 0; docs.length < 10; i++)
    docs.push({ title: `Note ${i}`, body: `Note number ${i} says the printer is on floor ${i}.` });
  for (const doc of docs) {
    const r = await rawCall(
      d.client,
      "POST",
      `/api/v1/kb/${kbid}/resources`,
      { title: doc.title, texts: { body: { body: doc.body, format: "PLAIN" } } },
      { "x-platform-client": "web", "x-platform-user": "editor" },
    );
    expect(r.status).toBe(201);
    rids.push((r.json as { uuid: string }).uuid);
  }
  await d.daemon.services.processing.idle();
  // 15 finds: alice, bob and carol, from the api client.
  for (let i = 0; i < 15; i++) {
    const user = ["alice", "bob", "carol"][i % 3];
    const r = await rawCall(
      d.client,
      "POST",
      `/api/v1/kb/${kbid}/find`,
      { query: QUESTIONS[i % 5], top_k: 5 },
      { "x-platform-user": user },
    );
    expect(r.status).toBe(200);
  }
  // 20 asks with audit metadata and the x-platform-* headers.
  for (let i = 0; i < 20; i++) {
    const user = i < 8 ? "alice" : "dave";
    askUsers.push(user);
    const r = await ask(
      d,
      kbid,
      { query: QUESTIONS[i % 5], audit_metadata: { team: i % 2 ? "red" : "blue", n: String(i) } },
      { "x-platform-user": user, "x-platform-client": i % 4 ? "widget" : "api", "x-forwarded-for": "10.1.2.3" },
    );
    expect(r.status).toBe(200);
    learningIds.push(String(r.headers["nuclia-learning-id"]));
  }
  // 3 visits, 1 change, 1 delete.
  for (const rid of rids.slice(0, 3))
    expect((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rid}`)).status).toBe(200);
  expect((await rawCall(d.client, "PATCH", `/api/v1/kb/${kbid}/resource/${rids[3]}`, { title: "Renamed" })).status).toBe(200);
  expect((await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/resource/${rids[9]}`)).status).toBe(204);
});
afterAll(async () => {
  await d?.stop();
});

describe("recording", () => {
  it("records each operation once, under its event type, with the caller's members", async () => {
    expect((await all("new")).map((r) => r.resource_id)).toEqual(rids);
    expect((await all("new"))[0]).toMatchObject({ user_id: "editor", client_type: "web", user_type: "OWNER" });
    expect(await all("search")).toHaveLength(15);
    expect(await all("ask")).toHaveLength(20);
    expect((await all("visited")).map((r) => r.resource_id)).toEqual(rids.slice(0, 3));
    expect((await all("modified")).map((r) => r.resource_id)).toEqual([rids[3]]);
    expect((await all("deleted")).map((r) => r.resource_id)).toEqual([rids[9]]);
    const processed = await all("processed");
    expect(new Set(processed.map((r) => r.resource_id))).toEqual(new Set(rids));
    expect((await all("indexed")).length).toBeGreaterThanOrEqual(10);
  });

  it("sets every member of an ask's row that applies", async () => {
    const [row] = await all("ask", { learning_id: { eq: learningIds[3] } });
    expect(row).toMatchObject({
      user_id: "alice",
      user_type: "OWNER",
      client_type: "widget",
      forwarded_for: "10.1.2.3",
      audit_metadata: { team: "red", n: "3" },
      question: QUESTIONS[3],
      learning_id: learningIds[3],
      status: 0,
      chat_history: [],
      rag_strategies_names: [],
      feedback_good: null,
    });
    expect(row.id).toEqual(expect.any(Number));
    expect(Date.parse(String(row.date))).toBeGreaterThan(Date.now() - 600_000);
    expect(row.total_duration).toBeGreaterThan(0);
    expect(String(row.answer)).toMatch(/purr/i);
    expect(row.model).toEqual(expect.any(String));
    expect(row.resources_count).toBeGreaterThan(0);
    expect(row.retrieval_time).toEqual(expect.any(Number));
    expect(row.platform_tokens).toEqual(expect.any(Number));
    expect(row.token_details).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    expect(row.generative_answer_time).toEqual(expect.any(Number));
    expect((row.retrieved_context as { text: string }[]).some((c) => /purr/i.test(c.text))).toBe(true);
    expect(row.user_request).toMatchObject({ query: QUESTIONS[3] });
    const [search] = await all("search", { user_id: { eq: "bob" } });
    expect(search).toMatchObject({ question: QUESTIONS[1], result_per_page: 5, client_type: "api" });
    expect(search.resources_count).toBeGreaterThan(0);
  });
});

describe("querying with filters", () => {
  it("answers every operator with exactly the rows expected", async () => {
    const asks = await all("ask");
    const ids = asks.map((r) => r.id as number);
    const count = async (filters: Record<string, unknown>) => (await all("ask", filters, ["user_id"])).length;
    expect(await count({ user_id: { eq: "alice" } })).toBe(8);
    expect(await count({ user_id: { ne: "alice" } })).toBe(12);
    expect(await count({ client_type: { eq: "api" } })).toBe(5);
    expect(await count({ id: { gt: ids[4], lt: ids[9] } })).toBe(4);
    expect(await count({ id: { ge: ids[4], le: ids[9] } })).toBe(6);
    expect(await count({ total_duration: { gt: 0 } })).toBe(20);
    expect(await count({ date: { ge: asks[10].date } })).toBe(10);
    expect(await count({ feedback_good: { isnull: true } })).toBe(20);
    expect(await count({ answer: { isnull: false } })).toBe(20);
    expect(await count({ user_id: { isin: ["dave", "nobody"] } })).toBe(12);
    expect(await count({ user_id: { isnotin: ["dave"] } })).toBe(8);
    expect(await count({ question: { like: "%cats%" } })).toBe(8);
    expect(await count({ question: { like: "%CATS%" } })).toBe(0);
    expect(await count({ question: { ilike: "%CATS%" } })).toBe(8);
    expect(await count({ audit_metadata: [{ key: "team", eq: "red" }] })).toBe(10);
    expect(await count({ audit_metadata: { key: "n", isin: ["1", "2", "3"] } })).toBe(3);
    expect(
      await count({
        audit_metadata: [
          { key: "n", like: "1%" },
          { key: "team", ne: "red" },
        ],
      }),
    ).toBe(5);
    expect(await count({ audit_metadata: [{ key: "n", ilike: "1_" }] })).toBe(10);
    expect(await count({ audit_metadata: [{ key: "missing", isnull: true }] })).toBe(20);
    expect(await count({ user_id: { eq: "alice" }, audit_metadata: [{ key: "team", eq: "blue" }] })).toBe(4);
    const searches = async (f: Record<string, unknown>) => (await all("search", f)).length;
    expect(await searches({ user_id: { isin: ["alice", "bob"] }, question: { ilike: "where%" } })).toBe(2);
  });

  it("shows the members asked for, pages with a cursor and says whether more follow", async () => {
    const first = await query("ask", { year_month: month(), filters: {}, show: ["question"], pagination: { limit: 7 } });
    expect(first.rows).toHaveLength(7);
    expect(Object.keys(first.rows[0]).sort()).toEqual(["date", "id", "question"]);
    expect(first.more).toBe("true");
    const last = first.rows[6].id as number;
    const second = await query("ask", { year_month: month(), filters: {}, pagination: { limit: 20, starting_after: last } });
    expect(second.rows).toHaveLength(13);
    expect(second.more).toBe("false");
    expect(Object.keys(second.rows[0]).sort()).toEqual(["date", "id"]);
    const before = await query("ask", { year_month: month(), filters: {}, pagination: { limit: 3, ending_before: last } });
    expect(before.rows.map((r) => r.id)).toEqual(first.rows.slice(3, 6).map((r) => r.id));
    const other = await query("ask", { year_month: "2001-01", filters: {} });
    expect(other.rows).toEqual([]);
  });

  it("refuses bad input with a located 422", async () => {
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/activity/ask/query`, {
      year_month: "2026-13",
      filters: { user_id: { around: 3 } },
    });
    expect(r.status).toBe(422);
    const locs = (r.json as { detail: { loc: unknown[] }[] }).detail.map((x) => x.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.year_month", "body.filters.user_id.around"]));
    expect(
      (await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/activity/nothing/query`, { year_month: month(), filters: {} })).status,
    ).toBe(422);
  });

  it("lists the months holding each event type", async () => {
    const r = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/ask/months`);
    expect(r.json).toEqual({ downloads: [month()] });
    expect((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/stopped/months`)).json).toEqual({ downloads: [] });
  });
});

describe("downloads and metrics", () => {
  const filters = { audit_metadata: [{ key: "team", eq: "red" }] };
  const show = ["question", "user_id", "audit_metadata", "answer"];

  async function download(accept: string): Promise<string> {
    const req = await rawCall(
      d.client,
      "POST",
      `/api/v1/kb/${kbid}/activity/ask/query/download`,
      { year_month: month(), filters, show },
      { accept },
    );
    expect(req.status, req.text).toBe(202);
    const rec = req.json as { request_id: string; download_format: string; download_url: string | null };
    expect(rec).toMatchObject({ download_format: accept, event_type: "ask", kb_id: kbid, download_url: null });
    const status = await until(
      async () =>
        (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/download_request/${rec.request_id}`)).json as typeof rec,
      (s) => s.download_url !== null,
    );
    expect(status.download_url).toMatch(new RegExp(`/activity/download_file/${rec.request_id}$`));
    const file = await rawCall(d.client, "GET", new URL(String(status.download_url), "http://x").pathname);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe(accept);
    return file.text;
  }

  it("downloads NDJSON and CSV files that match the query", async () => {
    const expected = await all("ask", filters, show);
    expect(expected).toHaveLength(10);
    const ndjson = (await download("application/x-ndjson"))
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(ndjson).toEqual(expected);
    const csv = (await download("text/csv")).trimEnd().split("\r\n");
    expect(csv[0]).toBe("id,date,question,user_id,audit_metadata,answer");
    expect(csv).toHaveLength(11);
    expect(csv.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(expected.map((r) => r.id));
    expect(csv[1]).toContain(`"{""team"":""red"",""n"":""1""}"`);
    const bad = await rawCall(
      d.client,
      "POST",
      `/api/v1/kb/${kbid}/activity/ask/query/download`,
      { year_month: month(), filters },
      { accept: "text/html" },
    );
    expect(bad.status).toBe(422);
  });

  it("counts searches and asks by day and by hour, adding up to the events", async () => {
    const from = new Date(Date.now() - 2 * 3600_000).toISOString();
    for (const aggregation of ["day", "hour", "millennium"]) {
      const r = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/metrics?from=${from}&aggregation=${aggregation}`);
      expect(r.status).toBe(200);
      const points = r.json as { timestamp: string; search: number; chat: number; ask: number }[];
      const sum = (k: "search" | "chat" | "ask") => points.reduce((a, p) => a + p[k], 0);
      expect({ search: sum("search"), ask: sum("ask"), chat: sum("chat") }).toEqual({ search: 15, ask: 20, chat: 20 });
      if (aggregation === "hour") expect(points.length).toBeGreaterThanOrEqual(3);
      if (aggregation === "millennium") expect(points).toHaveLength(1);
    }
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/metrics?from=${future}&aggregation=day`);
    expect((none.json as { search: number }[]).every((p) => p.search === 0)).toBe(true);
  });
});

describe("feedback and quality", () => {
  it("lands feedback on the ask's row by its learning id", async () => {
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/feedback`, {
      ident: learningIds[2],
      good: false,
      task: "CHAT",
      feedback: "wrong number",
    });
    expect(r.status).toBe(200);
    const [row] = await all("ask", { learning_id: { eq: learningIds[2] } });
    expect(row).toMatchObject({ feedback_good: false, feedback_comment: "wrong number" });
    expect((await all("ask", { feedback_good: { eq: false } })).map((x) => x.learning_id)).toEqual([learningIds[2]]);
    expect(await all("ask", { feedback_good: { isnull: true } })).toHaveLength(19);
  });

  it("scores every answer, stores the scores on the row and aggregates them", async () => {
    const rows = await until(
      () => all("ask"),
      (rs) => rs.every((r) => r.quality),
    );
    for (const r of rows) {
      const q = r.quality as {
        answer_relevance: { score: number; reason: string };
        context_relevance: number[];
        groundedness: number[];
      };
      expect(q.answer_relevance.reason).toEqual(expect.any(String));
      expect(q.context_relevance.length).toBe((r.retrieved_context as unknown[]).length);
      expect(q.groundedness.length).toBeGreaterThan(0);
      // Extractive answers are made of context sentences: fully grounded.
      expect(Math.min(...q.groundedness)).toBeGreaterThanOrEqual(4);
    }
    const from = new Date(Date.now() - 3600_000).toISOString();
    const scores = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/remi/scores?from=${from}`)).json as {
      metrics: { name: string; min: number; max: number; average: number }[];
    }[];
    expect(scores).toHaveLength(1);
    expect(scores[0].metrics.map((m) => m.name)).toEqual(["answer_relevance", "context_relevance", "groundedness"]);
    const g = scores[0].metrics[2];
    expect(g.min).toBeLessThanOrEqual(g.average);
    expect(g.average).toBeLessThanOrEqual(g.max);
    const q = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/remi/query`, { month: month(), feedback_good: false });
    const data = (q.json as { data: { id: number; question: string }[] }).data;
    expect(data.map((x) => x.question)).toEqual([QUESTIONS[2]]);
    const ev = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/remi/events/${data[0].id}`);
    expect((ev.json as { context: { text: string }[] }).context.some((c) => /cats sleep/i.test(c.text))).toBe(true);
    const low = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/remi/query`, {
      month: month(),
      context_relevance: { value: 6, operation: "lt", aggregation: "max" },
      pagination: { limit: 5 },
    });
    expect(low.json).toMatchObject({ has_more: true });
    expect((low.json as { data: unknown[] }).data).toHaveLength(5);
  });
});
