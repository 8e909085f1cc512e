import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as findApi from "../../../src/api/find.js";
import * as ls from "../../../src/api/labelsets.js";
import * as search from "../../../src/api/search.js";
import * as sc from "../../../src/api/search-configs.js";
import { SearchFixture } from "../../helpers/search-fixture.js";

let fx: SearchFixture;
const ids: Record<string, string> = {};

beforeAll(async () => {
  fx = await SearchFixture.start();
  ids.a = await fx.add(
    {
      slug: "a",
      title: "Quarterly report",
      origin: { tags: ["report"] },
      usermetadata: {
        classifications: [{ labelset: "topic", label: "finance" }],
        relations: [{ relation: "ENTITY", to: { value: "Acme Corp", type: "entity", group: "ORG" } }],
      },
    },
    [
      { text: "Revenue grew in the third quarter", vec: [1, 0] },
      { text: "Costs were flat", vec: [0, 1] },
    ],
  );
  ids.b = await fx.add(
    {
      slug: "b",
      title: "Annual summary",
      origin: { tags: ["summary"] },
      usermetadata: { classifications: [{ labelset: "topic", label: "ops" }] },
    },
    [{ text: "Revenue for the year", vec: [0.8, 0.6] }],
  );
});
afterAll(async () => fx?.stop());

describe("stored search configurations", () => {
  it("CRUD, merge rule and kind check", async () => {
    const c = fx.d.client;
    const params = { kbid: fx.kbid, name: "reports" };
    await c.call(sc.createSearchConfig, {
      params,
      body: {
        kind: "find",
        config: { features: ["keyword"], top_k: 1, filter_expression: { field: { prop: "origin_tag", tag: "report" } } },
      },
    });
    await expect(c.call(sc.createSearchConfig, { params, body: { kind: "find", config: {} } })).rejects.toMatchObject({
      status: 409,
    });
    expect(await c.call(sc.getSearchConfig, { params })).toMatchObject({ kind: "find", config: { top_k: 1 } });
    const r = await fx.find({ query: "revenue", search_configuration: "reports" });
    expect(r.best_matches).toHaveLength(1);
    expect(r.best_matches[0]).toContain(ids.a);
    // The request overrides members of the configuration, shallowly.
    const r2 = await fx.find({
      query: "revenue",
      search_configuration: "reports",
      filter_expression: { field: { prop: "origin_tag", tag: "summary" } },
    });
    expect(r2.best_matches[0]).toContain(ids.b);
    await c.call(sc.updateSearchConfig, { params, body: { kind: "ask", config: { top_k: 3 } } });
    await expect(fx.find({ query: "x", search_configuration: "reports" })).rejects.toMatchObject({ status: 400 });
    await expect(fx.find({ query: "x", search_configuration: "nope" })).rejects.toMatchObject({ status: 400 });
    expect(Object.keys(await c.call(sc.listSearchConfigs, { params: { kbid: fx.kbid } }))).toEqual(["reports"]);
    await c.call(sc.deleteSearchConfig, { params });
    await expect(c.call(sc.getSearchConfig, { params })).rejects.toMatchObject({ status: 404 });
    await expect(c.call(sc.createSearchConfig, { params, body: { kind: "find", config: { top_k: 500 } } })).rejects.toMatchObject(
      { status: 422 },
    );
  });
});

describe("GET /find", () => {
  it("takes the request as query parameters", async () => {
    const r = await fx.d.client.call(findApi.findGet, {
      params: { kbid: fx.kbid },
      query: { query: "revenue", features: ["keyword"], top_k: "1", filters: ["/t/summary"] },
    });
    expect(r.best_matches).toHaveLength(1);
    expect(r.best_matches[0]).toContain(ids.b);
    // top_k 0 is valid upstream (no paragraphs); below 0 is not.
    const none = await fx.d.client.call(findApi.findGet, { params: { kbid: fx.kbid }, query: { query: "revenue", top_k: "0" } });
    expect(none.best_matches).toEqual([]);
    await expect(fx.d.client.call(findApi.findGet, { params: { kbid: fx.kbid }, query: { top_k: "-1" } })).rejects.toMatchObject({
      status: 422,
    });
  });
});

describe("labelsets", () => {
  it("CRUD", async () => {
    const c = fx.d.client;
    const params = { kbid: fx.kbid, labelset: "topic" };
    await c.call(ls.setLabelset, { params, body: { title: "Topic", labels: [{ title: "finance" }] } });
    expect(await c.call(ls.getLabelset, { params })).toMatchObject({
      title: "Topic",
      labels: [{ title: "finance" }],
      multiple: true,
    });
    expect(Object.keys((await c.call(ls.listLabelsets, { params: { kbid: fx.kbid } })).labelsets)).toEqual(["topic"]);
    await c.call(ls.deleteLabelset, { params });
    await expect(c.call(ls.getLabelset, { params })).rejects.toMatchObject({ status: 404 });
  });
});

describe("search, catalog, suggest", () => {
  it("/search returns paragraphs, fulltext, sentences and facets", async () => {
    const r = await fx.d.client.call(search.search, {
      params: { kbid: fx.kbid },
      body: { query: "revenue", vector: [1, 0], faceted: ["/l/topic"] },
    });
    expect(((r.paragraphs?.results ?? []) as { rid: string }[]).map((p) => p.rid).sort()).toEqual([ids.a, ids.b].sort());
    expect(r.fulltext?.results).toHaveLength(2);
    expect(r.sentences?.results.length).toBeGreaterThan(0);
    expect(r.paragraphs?.facets).toEqual({ "/l/topic": { "/l/topic/finance": 1, "/l/topic/ops": 1 } });
    expect(Object.keys(r.resources).sort()).toEqual([ids.a, ids.b].sort());
  });
  it("/catalog lists by title match, filters, sort and facets", async () => {
    const c = fx.d.client;
    const cat = (body: object) => c.call(search.catalog, { params: { kbid: fx.kbid }, body });
    expect(Object.keys((await cat({ query: "quart" })).resources)).toEqual([ids.a]);
    expect(Object.keys((await cat({ query: { query: "summary", match: "exact" } })).resources)).toEqual([]);
    expect(Object.keys((await cat({ query: { query: "annual", match: "starts_with" } })).resources)).toEqual([ids.b]);
    expect(
      Object.keys((await cat({ filter_expression: { resource: { prop: "label", labelset: "topic", label: "ops" } } })).resources),
    ).toEqual([ids.b]);
    expect(
      Object.keys((await cat({ filter_expression: { resource: { prop: "status", status: "PENDING" } } })).resources),
    ).toEqual([]);
    expect(Object.keys((await cat({ with_status: "PROCESSED" })).resources)).toHaveLength(2);
    const sorted = await cat({ sort: { field: "title", order: "asc" }, faceted: ["/t"] });
    expect(Object.keys(sorted.resources)).toEqual([ids.b, ids.a]);
    expect(sorted.fulltext?.facets).toEqual({ "/t": { "/t/report": 1, "/t/summary": 1 } });
    const f = await c.call(search.catalogFacets, { params: { kbid: fx.kbid }, body: { facets: ["/l/topic"] } });
    expect(f.facets["/l/topic"]).toEqual({ "/l/topic/finance": 1, "/l/topic/ops": 1 });
    await expect(cat({ filter_expression: { resource: { prop: "bogus" } } })).rejects.toMatchObject({ status: 422 });
  });
  it("/suggest returns paragraphs and entities", async () => {
    const r = await fx.d.client.call(search.suggest, { params: { kbid: fx.kbid }, query: { query: "acme" } });
    expect(r.entities.entities).toEqual([{ value: "Acme Corp", family: "ORG" }]);
    const p = await fx.d.client.call(search.suggest, {
      params: { kbid: fx.kbid },
      query: { query: "costs", features: ["paragraph"] },
    });
    expect((p.paragraphs.results as { text: string }[]).map((x) => x.text)).toEqual(["Costs were flat"]);
  });
});
