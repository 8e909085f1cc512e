import { describe, expect, it } from "vitest";
import { nodeMatches } from "../../../daemon/search/graph.js";

const curie = { value: "Marie Curie", type: "entity" as const, group: "PERSON" };

describe("graph node patterns", () => {
  it("exact: the same value with case and accents aside; type defaults to any when null, group must agree", () => {
    expect(nodeMatches(curie, { value: "marie curie", match: "exact", type: "entity" })).toBe(true);
    expect(nodeMatches({ ...curie, value: "Émile Zola" }, { value: "emile zola", match: "exact", type: "entity" })).toBe(true);
    expect(nodeMatches(curie, { value: "Marie", match: "exact", type: "entity" })).toBe(false);
    expect(nodeMatches(curie, { type: "resource", match: "exact" })).toBe(false);
    expect(nodeMatches(curie, { type: null, match: "exact", group: "PERSON" })).toBe(true);
    expect(nodeMatches(curie, { type: null, match: "exact", group: "LOC" })).toBe(false);
    expect(nodeMatches(curie, undefined)).toBe(true);
  });

  it("fuzzy: one edit (two above five characters) on the whole value or a word, or a word's prefix", () => {
    const q = (value: string) => ({ value, match: "fuzzy" as const, type: "entity" as const });
    expect(nodeMatches(curie, q("Marie Curi"))).toBe(true);
    expect(nodeMatches(curie, q("Kurie"))).toBe(true);
    expect(nodeMatches(curie, q("cur"))).toBe(true);
    expect(nodeMatches(curie, q("Einstein"))).toBe(false);
    expect(nodeMatches(curie, q("Mxxie"))).toBe(false);
  });
});
