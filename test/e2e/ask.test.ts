import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, ask, itemOf, paragraphWith } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let kbid: string;
let rids: Record<string, string>;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "ask"));
});
afterAll(async () => d?.stop());

describe("ask stream with the extractive default", () => {
  it("streams answer chunks, retrieval, status, citations and metadata in the wire order", async () => {
    const r = await ask(d, kbid, { query: "When does the team ship a new release?", features: ["keyword"], citations: true });
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/x-ndjson");
    expect(r.headers["nuclia-learning-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(r.headers["access-control-expose-headers"]).toBe("NUCLIA-LEARNING-ID");
    const types = r.items.map((i) => i.type);
    const firstNonAnswer = types.findIndex((t) => t !== "answer");
    expect(types.slice(0, firstNonAnswer).length).toBeGreaterThan(1);
    expect(types.slice(firstNonAnswer)).toEqual(["retrieval", "status", "augmented_context", "citations", "metadata"]);
    const answer = answerOf(r.items);
    expect(answer).toContain("every Friday afternoon");
    expect(answer).not.toContain("coffee");
    const retrieval = itemOf(r.items, "retrieval");
    const best = retrieval?.best_matches.map((b) => b.id) ?? [];
    const friday = paragraphWith(r.items, "every Friday") as string;
    expect(friday).toMatch(new RegExp(`^${rids.shipping}/t/body/0-\\d+$`));
    expect(best.slice(0, 2)).toContain(friday);
    const citations = itemOf(r.items, "citations")?.citations ?? {};
    expect(Object.keys(citations)).toContain(friday);
    const [start, end] = citations[friday][0];
    expect(answer.slice(start, end)).toContain("Friday");
    expect(itemOf(r.items, "status")).toEqual({ type: "status", code: "0", status: "success" });
    const meta = itemOf(r.items, "metadata");
    expect(meta?.generator).toEqual({ model: "extractive", kind: "extractive", extractive: true });
    expect(meta?.tokens.output).toBeGreaterThan(0);
    expect(meta?.timings.generative_total).toBeGreaterThanOrEqual(0);
  });

  it("answers the question asked rather than dumping paragraphs", async () => {
    const where = answerOf((await ask(d, kbid, { query: "Where is the office located?", features: ["keyword"] })).items);
    expect(where).toContain("Lisbon");
    expect(where).not.toContain("coffee machine");
    const how = answerOf((await ask(d, kbid, { query: "How many meeting rooms are there?", features: ["keyword"] })).items);
    expect(how).toContain("6 meeting rooms");
    expect(how).not.toContain("Lisbon");
    const why = answerOf((await ask(d, kbid, { query: "Why do cats purr?", features: ["keyword"] })).items);
    expect(why).toMatch(/because it calms them/);
    expect(why).not.toMatch(/12 and 16 hours/);
  });

  it("returns every member synchronously with x-synchronous (any case)", async () => {
    const r = await ask(
      d,
      kbid,
      { query: "Who writes the release notes?", features: ["keyword"], citations: "default" },
      { "X-SYNCHRONOUS": "True", "x-show-consumption": "true" },
    );
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    const j = r.json as Record<string, any>;
    expect(j.answer).toContain("Maria Lopez");
    expect(j.status).toBe("success");
    expect(j.learning_id).toBe(r.headers["nuclia-learning-id"]);
    expect(j.retrieval_best_matches[0].id).toMatch(new RegExp(`^${rids.shipping}/`));
    expect(j.retrieval_results.resources[rids.shipping]).toBeTruthy();
    expect(Object.keys(j.citations).length).toBeGreaterThan(0);
    expect(j.citation_footnote_to_context).toEqual({});
    expect(j.augmented_context).toEqual({ paragraphs: {}, fields: {} });
    expect(j.metadata.tokens.input).toBeGreaterThan(0);
    expect(j.consumption.normalized_tokens.output).toBeGreaterThan(0);
  });

  it("takes the no-retrieval path when nothing matches", async () => {
    const r = await ask(d, kbid, { query: "zzyzx quux", features: ["keyword"] });
    expect(r.items[0]).toEqual({ type: "status", code: "-3", status: "no_retrieval_data" });
    expect(r.items[1]).toEqual({ type: "answer", text: "Not enough data to answer this." });
    expect(itemOf(r.items, "retrieval")?.results.best_matches).toEqual([]);
    const s = await ask(d, kbid, { query: "zzyzx quux", features: ["keyword"] }, { "x-synchronous": "true" });
    expect((s.json as any).status).toBe("no_retrieval_data");
    expect((s.json as any).answer).toBe("Not enough data to answer this.");
  });

  it("returns retrieval only with generate_answer false", async () => {
    const r = await ask(d, kbid, { query: "Friday release", features: ["keyword"], generate_answer: false });
    expect(r.items.map((i) => i.type)).toEqual(["retrieval", "status", "metadata"]);
    expect(answerOf(r.items)).toBe("");
  });

  it("asks about one resource by id and by slug", async () => {
    const a = await ask(d, kbid, { query: "What time does it open?", features: ["keyword"] }, {}, `resource/${rids.office}/ask`);
    expect(answerOf(a.items)).toContain("8:30");
    const ids = itemOf(a.items, "retrieval")?.best_matches.map((b) => b.id) ?? [];
    expect(ids.every((id) => id.startsWith(rids.office))).toBe(true);
    const b = await ask(d, kbid, { query: "release", features: ["keyword"] }, {}, "slug/office/ask");
    expect(itemOf(b.items, "retrieval")?.best_matches.every((m) => m.id.startsWith(rids.office))).toBe(true);
    expect((await ask(d, kbid, { query: "x" }, {}, "slug/nope/ask")).status).toBe(404);
  });

  it("rejects bad input with 4xx before streaming", async () => {
    const missing = await ask(d, kbid, {});
    expect(missing.status).toBe(422);
    expect((missing.json as any).detail[0].loc).toEqual(["body", "query"]);
    const badModel = await ask(d, kbid, { query: "x", generative_model: "nonsense-model" });
    expect(badModel.status).toBe(422);
    expect((badModel.json as any).detail[0].loc).toEqual(["body", "generative_model"]);
    const badStrategy = await ask(d, kbid, { query: "x", rag_strategies: [{ name: "bogus" }] });
    expect(badStrategy.status).toBe(422);
    expect((await ask(d, "00000000-0000-4000-8000-000000000000", { query: "x" })).status).toBe(404);
  });
});
