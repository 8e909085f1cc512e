import { describe, expect, it } from "vitest";
import { matches } from "../../../daemon/activity/filters.js";
import { lexicalScores } from "../../../daemon/activity/quality.js";
import { Scorer } from "../../../daemon/activity/scorer.js";

const CONTEXT = [
  "The office is located in Lisbon, on Rua Augusta 120. It opens at 8:30 every morning.",
  "Visitors must sign in at the front desk. The coffee machine is on the second floor.",
  "Cats sleep between 12 and 16 hours a day.",
];
const Q = "Where is the office and when does it open?";
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("offline answer-quality scores", () => {
  it("scores a grounded answer higher on groundedness than one whose sentences are not in the context", () => {
    const grounded = lexicalScores(
      Q,
      "The office is located in Lisbon, on Rua Augusta 120. It opens at 8:30 every morning.",
      CONTEXT,
    );
    const invented = lexicalScores(Q, "The office moved to Porto last year. Staff arrive around noon on weekdays.", CONTEXT);
    expect(grounded.groundedness).toHaveLength(2);
    expect(invented.groundedness).toHaveLength(2);
    expect(Math.min(...grounded.groundedness)).toBeGreaterThan(4);
    expect(Math.max(...invented.groundedness)).toBeLessThan(2);
    expect(avg(grounded.groundedness)).toBeGreaterThan(avg(invented.groundedness) + 2);
    expect(grounded.method).toBe("lexical");
  });

  it("scores context pieces by the question's words, and answer relevance with a reason", () => {
    const s = lexicalScores(Q, "The office is in Lisbon and opens at 8:30.", CONTEXT);
    expect(s.context_relevance).toHaveLength(3);
    expect(s.context_relevance[0]).toBeGreaterThan(s.context_relevance[2]);
    expect(s.answer_relevance.score).toBeGreaterThan(2);
    expect(s.answer_relevance.reason).toMatch(/content words/);
    const none = lexicalScores(Q, "Not enough data to answer this.", CONTEXT);
    expect(none.answer_relevance).toMatchObject({ score: 0, reason: expect.stringMatching(/cannot answer/) });
    expect(none.groundedness).toEqual([]);
  });

  it("uses a cross-encoder when one is there, averaged with the lexical overlap for groundedness", async () => {
    // A deterministic stand-in cross-encoder: the share of the query's words the passage holds.
    const ce = {
      id: "overlap-ce",
      score: async (q: string, ps: string[]) =>
        ps.map((p) => {
          const w = q.toLowerCase().match(/\w+/g) ?? [];
          return w.filter((x) => p.toLowerCase().includes(x)).length / Math.max(1, w.length);
        }),
    };
    const s = await new Scorer(async () => ce).score(Q, "The office is located in Lisbon, on Rua Augusta 120.", CONTEXT);
    expect(s.method).toBe("cross-encoder:overlap-ce");
    expect(s.groundedness[0]).toBeGreaterThan(4);
    const off = await new Scorer(async () => undefined).score(Q, "x is y.", CONTEXT);
    expect(off.method).toBe("lexical");
  });
});

describe("activity filters", () => {
  const row = {
    user_id: "ana",
    total_duration: 1.5,
    date: "2026-11-27T10:00:00.000Z",
    audit_metadata: { team: "Red" },
    answer: null,
  };
  it("combines operators with AND and compares numbers, dates and text", () => {
    expect(matches(row, { total_duration: { gt: 1, lt: 2 } })).toBe(true);
    expect(matches(row, { total_duration: { ge: 1.5, le: 1.5, ne: 2 } })).toBe(true);
    expect(matches(row, { date: { lt: "2026-11-27T11:00:00Z" } })).toBe(true);
    expect(matches(row, { date: { gt: "2026-11-28" } })).toBe(false);
    expect(matches(row, { answer: { isnull: true }, user_id: { isnull: false } })).toBe(true);
    expect(matches(row, { user_id: { like: "a_a" } })).toBe(true);
    expect(matches(row, { user_id: { like: "A%" } })).toBe(false);
    expect(matches(row, { audit_metadata: [{ key: "team", ilike: "red" }] })).toBe(true);
    expect(matches(row, { audit_metadata: [{ key: "team", like: "red" }] })).toBe(false);
    expect(matches(row, { audit_metadata: [{ like: "R%" }] })).toBe(true);
    expect(matches(row, { user_id: { isin: ["bo"] } })).toBe(false);
  });
});
