import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../../src/client/errors.js";
import { SearchFixture } from "../../helpers/search-fixture.js";

let fx: SearchFixture;
const ids: Record<string, string> = {};

beforeAll(async () => {
  fx = await SearchFixture.start();
  ids.cats = await fx.add(
    {
      title: "Cats",
      slug: "cats",
      usermetadata: { classifications: [{ labelset: "topic", label: "animals" }] },
      origin: { path: "/docs/pets", tags: ["pet"], collaborators: ["ana"], metadata: { team: "blue" }, source_id: "web" },
      icon: "text/plain",
      metadata: { language: "en" },
    },
    [
      { text: "Cats are running quickly through the garden", vec: [1, 0, 0, 0] },
      { text: "The quick brown fox jumps over the lazy dog", vec: [0.7, 0.7, 0, 0], labels: ["/l/para/good"] },
    ],
  );
  ids.dogs = await fx.add(
    {
      title: "Dogs",
      slug: "dogs",
      usermetadata: { classifications: [{ labelset: "topic", label: "pets" }] },
      origin: { path: "/docs/petsitter", tags: ["dog"] },
      icon: "application/pdf",
      security: { access_groups: ["g1"] },
    },
    [
      { text: "Dogs run in the park every morning", vec: [0, 1, 0, 0] },
      { text: "Column A | Column B", vec: [0, 0, 1, 0], kind: "TABLE", is_table: true, page: 3 },
    ],
  );
  ids.hidden = await fx.add({ title: "Secret", slug: "hidden", hidden: true }, [
    { text: "hidden garden notes", vec: [0, 0, 0, 1] },
  ]);
  ids.es = await fx.add({ title: "Gatos", slug: "es", metadata: { language: "es" } }, [
    { text: "Los gatos corren por el jardín", lang: "es", vec: [0.9, 0.1, 0, 0] },
  ]);
});
afterAll(async () => fx?.stop());

describe("keyword", () => {
  it("stems, drops stop words and ranks by BM25", async () => {
    const r = await fx.find({ query: "the cat runs", features: ["keyword"] });
    expect(r.best_matches[0]).toContain(ids.cats);
    const p = Object.values(r.resources[ids.cats].fields["/t/body"].paragraphs)[0];
    expect(p.score_type).toBe("BM25");
    expect(r.resources[ids.cats].title).toBe("Cats");
  });
  it("finds other languages with their own stemmer", async () => {
    expect((await fx.texts({ query: "gato", features: ["keyword"] })).sort()).toEqual([
      "Gatos",
      "Los gatos corren por el jardín",
    ]);
  });
  it("matches quoted phrases exactly and honours -word", async () => {
    expect(await fx.texts({ query: '"brown fox"', features: ["keyword"] })).toEqual([
      "The quick brown fox jumps over the lazy dog",
    ]);
    expect(await fx.texts({ query: '"fox brown"', features: ["keyword"] })).toEqual([]);
    expect(await fx.texts({ query: "garden -cats", features: ["keyword"] })).toEqual([]);
    expect(await fx.texts({ query: "+dog run", features: ["keyword"] })).toContain("Dogs run in the park every morning");
  });
  it("highlights matched words", async () => {
    const r = await fx.find({ query: "running cat", features: ["keyword"], highlight: true });
    const p = Object.values(r.resources[ids.cats].fields["/t/body"].paragraphs)[0];
    expect(p.text).toBe("<mark>Cats</mark> are <mark>running</mark> quickly through the garden");
  });
});

describe("semantic and fusion", () => {
  it("uses the caller's vector", async () => {
    const r = await fx.find({ query: "", vector: [1, 0, 0, 0], features: ["semantic"], top_k: 2 });
    expect(r.best_matches[0]).toContain(ids.cats);
    const p = r.resources[ids.cats].fields["/t/body"].paragraphs[r.best_matches[0]];
    expect(p.score_type).toBe("VECTOR");
    expect(p.score).toBeCloseTo(1, 5);
    expect(r.best_matches).toHaveLength(2);
  });
  it("fuses with RRF: BOTH when found by both, scores Σ w/(k+rank)", async () => {
    const r = await fx.find({ query: "cats garden", vector: [1, 0, 0, 0], rank_fusion: { name: "rrf", k: 10 } });
    const top = r.resources[ids.cats].fields["/t/body"].paragraphs[r.best_matches[0]];
    expect(top.score_type).toBe("BOTH");
    expect(top.score).toBeCloseTo(2 / 10, 6);
    expect(top.order).toBe(0);
  });
  it("boosting weights the retrievers", async () => {
    const r = await fx.find({
      query: "dogs",
      vector: [1, 0, 0, 0],
      rank_fusion: { name: "rrf", k: 1, boosting: { keyword: 0, semantic: 5 } },
    });
    expect(r.best_matches[0]).toContain(ids.cats);
  });
  it("min_score drops weak semantic hits; bm25 min drops keyword hits", async () => {
    const r = await fx.find({ vector: [1, 0, 0, 0], features: ["semantic"], min_score: 0.995 });
    expect(r.best_matches).toHaveLength(1);
    const r2 = await fx.find({ query: "dog", features: ["keyword"], min_score: { bm25: 1000 } });
    expect(r2.best_matches).toEqual([]);
    expect(r2.min_score).toEqual({ semantic: null, bm25: 1000 });
  });
  it("paginates", async () => {
    const a = await fx.find({ vector: [1, 0, 0, 0], features: ["semantic"], top_k: 2 });
    const b = await fx.find({ vector: [1, 0, 0, 0], features: ["semantic"], top_k: 2, page_number: 1 });
    expect(a.next_page).toBe(true);
    expect(b.page_number).toBe(1);
    expect(b.best_matches.some((id) => a.best_matches.includes(id))).toBe(false);
    expect(
      Object.values(b.resources).flatMap((res) =>
        Object.values(res.fields).flatMap((f) => Object.values(f.paragraphs).map((p) => p.order)),
      ),
    ).toContain(2);
  });
  it("rejects a vector of the wrong size", async () => {
    await expect(fx.find({ vector: [1, 0], features: ["semantic"] })).rejects.toMatchObject({ status: 422 });
  });
  it("reports positions, table flags and page numbers", async () => {
    const r = await fx.find({ query: "column", features: ["keyword"] });
    const p = r.resources[ids.dogs].fields["/t/body"].paragraphs[r.best_matches[0]];
    expect(p).toMatchObject({ is_a_table: true, labels: ["/k/table"], position: { page_number: 3, index: 1 } });
  });
});

describe("hidden and security", () => {
  it("hides hidden resources unless show_hidden", async () => {
    expect(await fx.texts({ query: "garden", features: ["keyword"] })).not.toContain("hidden garden notes");
    expect(await fx.texts({ query: "garden", features: ["keyword"], show_hidden: true })).toContain("hidden garden notes");
  });
  it("security groups intersect; public resources stay visible", async () => {
    const q = { query: "dogs cats", features: ["keyword" as const] };
    const rids = async (body: object) => Object.keys((await fx.find({ ...q, ...body })).resources).sort();
    expect(await rids({ security: { groups: ["g2"] } })).toEqual([ids.cats].sort());
    expect(await rids({ security: { groups: ["g1", "g2"] } })).toEqual([ids.cats, ids.dogs].sort());
  });
});

describe("errors", () => {
  it("missing KB is 404", async () => {
    const e = await fx.d.client
      .call((await import("../../../src/api/find.js")).find, {
        params: { kbid: "00000000-0000-4000-8000-000000000000" },
        body: { query: "x" },
      })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(404);
    expect(e.detail).toBe("Knowledge Box not found");
  });
});

describe("cancellation", () => {
  it("a find whose signal is aborted (the client went away) stops with the signal's reason", async () => {
    const search = fx.d.daemon.services.search;
    const gone = new AbortController();
    gone.abort(new Error("client gone"));
    await expect(search.find(fx.kbid, { query: "cats" }, { signal: gone.signal })).rejects.toThrow("client gone");
    // The same request without the signal answers.
    expect((await search.find(fx.kbid, { query: "cats", features: ["keyword"] })).total).toBeGreaterThan(0);
  });
});

describe("query languages", () => {
  it("are the resources' main languages, not every language some field was taken for", async () => {
    const store = await fx.store();
    const search = fx.d.daemon.services.search;
    expect(search.languages(store).sort()).toEqual(["en", "es"]);
    // An English note whose short title alone was detected as Italian: no Italian reading of queries.
    await fx.add({ title: "Pasta al dente", slug: "it-title", metadata: { language: "en", languages: ["en", "it"] } }, [
      { text: "Boil the pasta for nine minutes", vec: [0, 0, 0.5, 0.5] },
    ]);
    expect([...store.resources.values()].find((r) => r.slug === "it-title")?.metadata.languages).toContain("it");
    expect(search.languages(store).sort()).toEqual(["en", "es"]);
    await fx.add({ title: "Gatti", slug: "it", metadata: { language: "it" } }, [
      { text: "I gatti corrono nel giardino", lang: "it", vec: [0.8, 0.2, 0, 0] },
    ]);
    expect(search.languages(store).sort()).toEqual(["en", "es", "it"]);
    expect(await fx.texts({ query: "gatto", features: ["keyword"] })).toContain("I gatti corrono nel giardino");
  });
});
