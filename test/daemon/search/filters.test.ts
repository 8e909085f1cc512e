import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchFixture } from "../../helpers/search-fixture.js";

let fx: SearchFixture;
const ids: Record<string, string> = {};
const ALL = "alpha";

/** Resource slugs a filtered keyword query returns, sorted. */
async function slugs(body: Record<string, unknown>): Promise<string[]> {
  const r = await fx.find({ query: ALL, features: ["keyword"], top_k: 50, ...body });
  return Object.values(r.resources)
    .map((x) => x.slug as string)
    .sort();
}

beforeAll(async () => {
  fx = await SearchFixture.start();
  ids.a = await fx.add(
    {
      slug: "a",
      title: "A",
      icon: "application/pdf",
      metadata: { language: "en", languages: ["en", "de"] },
      usermetadata: {
        classifications: [{ labelset: "topic", label: "science" }],
        relations: [{ relation: "ENTITY", to: { value: "Ada", type: "entity", group: "PERSON" } }],
      },
      origin: {
        path: "/docs/reports/2024",
        tags: ["report"],
        metadata: { team: "blue" },
        source_id: "crawler",
        collaborators: ["ana"],
      },
      fieldmetadata: [],
    },
    [
      { text: "alpha one", labels: ["/l/para/good"], facets: ["/n/i/application/pdf", "/e/ORG/Acme"] },
      { text: "alpha two", kind: "TITLE", field: "a/summary" },
    ],
  );
  ids.b = await fx.add(
    {
      slug: "b",
      title: "B",
      icon: "text/html",
      metadata: { language: "fr" },
      usermetadata: { classifications: [{ labelset: "topic", label: "art" }] },
      origin: { path: "/docs/reportsX", tags: ["draft"] },
    },
    [{ text: "alpha three", lang: "fr", field: "u/link" }],
  );
  ids.c = await fx.add({ slug: "c", title: "C", key_values: { kv: { data: { year: "2021", color: "Dark red" } } } }, [
    { text: "alpha four beta", facets: ["/g/da/summary"] },
  ]);
});
afterAll(async () => fx?.stop());

describe("filter_expression field props", () => {
  const cases: [string, unknown, string[]][] = [
    ["resource id", { prop: "resource", id: "RID_A" }, ["a"]],
    ["resource slug", { prop: "resource", slug: "b" }, ["b"]],
    ["field type", { prop: "field", type: "link" }, ["b"]],
    ["field type+name", { prop: "field", type: "generic", name: "summary" }, ["a"]],
    ["keyword", { prop: "keyword", word: "beta" }, ["c"]],
    ["label labelset", { prop: "label", labelset: "topic" }, ["a", "b"]],
    ["label exact", { prop: "label", labelset: "topic", label: "art" }, ["b"]],
    ["resource mimetype", { prop: "resource_mimetype", type: "application", subtype: "pdf" }, ["a"]],
    ["resource mimetype type only", { prop: "resource_mimetype", type: "text" }, ["b"]],
    ["field mimetype", { prop: "field_mimetype", type: "application" }, ["a"]],
    ["entity from relations", { prop: "entity", subtype: "PERSON", value: "Ada" }, ["a"]],
    ["entity from facets", { prop: "entity", subtype: "ORG" }, ["a"]],
    ["language any", { prop: "language", language: "de" }, ["a"]],
    ["language primary", { prop: "language", language: "de", only_primary: true }, []],
    ["paragraph language", { prop: "language", language: "fr" }, ["b"]],
    ["origin tag", { prop: "origin_tag", tag: "draft" }, ["b"]],
    ["origin metadata", { prop: "origin_metadata", field: "team", value: "blue" }, ["a"]],
    ["origin path is left-anchored", { prop: "origin_path", prefix: "/docs/reports" }, ["a"]],
    ["origin path parent", { prop: "origin_path", prefix: "/docs" }, ["a", "b"]],
    ["origin source", { prop: "origin_source", id: "crawler" }, ["a"]],
    ["origin collaborator", { prop: "origin_collaborator", collaborator: "ana" }, ["a"]],
    ["generated", { prop: "generated", by: "data-augmentation" }, ["c"]],
    ["created window", { prop: "created", since: "2000-01-01T00:00:00Z" }, ["a", "b", "c"]],
    ["modified until past", { prop: "modified", until: "2000-01-01T00:00:00Z" }, []],
  ];
  for (const [name, prop, want] of cases) {
    it(name, async () => {
      const p = JSON.parse(JSON.stringify(prop).replace("RID_A", ids.a));
      expect(await slugs({ filter_expression: { field: p } })).toEqual(want);
    });
  }
  it("and / or / not / operands", async () => {
    const tag = (t: string) => ({ prop: "origin_tag", tag: t });
    expect(await slugs({ filter_expression: { field: { or: [tag("report"), tag("draft")] } } })).toEqual(["a", "b"]);
    expect(await slugs({ filter_expression: { field: { and: [tag("report"), { prop: "label", labelset: "topic" }] } } })).toEqual(
      ["a"],
    );
    expect(await slugs({ filter_expression: { field: { not: tag("report") } } })).toEqual(["b", "c"]);
    expect(await slugs({ filter_expression: { field: { operands: [tag("report"), tag("draft")] } } })).toEqual([]);
  });
});

describe("paragraph props and operator", () => {
  it("paragraph label and kind, with not", async () => {
    expect(
      await fx.texts({
        query: ALL,
        features: ["keyword"],
        filter_expression: { paragraph: { prop: "label", labelset: "para", label: "good" } },
      }),
    ).toEqual(["alpha one"]);
    expect(
      await fx.texts({ query: ALL, features: ["keyword"], filter_expression: { paragraph: { prop: "kind", kind: "TITLE" } } }),
    ).toEqual(["alpha two"]);
    const notTitle = await fx.texts({
      query: ALL,
      features: ["keyword"],
      filter_expression: { paragraph: { not: { prop: "kind", kind: "TITLE" } } },
    });
    expect(notTitle).not.toContain("alpha two");
    expect(notTitle).toHaveLength(3);
  });
  it("operator or joins field and paragraph parts", async () => {
    const fe = { field: { prop: "origin_tag", tag: "draft" }, paragraph: { prop: "kind", kind: "TITLE" } };
    expect((await fx.texts({ query: ALL, features: ["keyword"], filter_expression: { ...fe, operator: "or" } })).sort()).toEqual([
      "alpha three",
      "alpha two",
    ]);
    expect(await fx.texts({ query: ALL, features: ["keyword"], filter_expression: fe })).toEqual([]);
  });
});

describe("key_value", () => {
  it("eq, range, contains and not", async () => {
    const kv = (x: object) => ({ filter_expression: { key_value: { schema_id: "kv", key: "year", ...x } } });
    expect(await slugs(kv({ eq: "2021" }))).toEqual(["c"]);
    expect(await slugs(kv({ gte: 2020, lte: 2022 }))).toEqual(["c"]);
    expect(await slugs(kv({ gte: 2022 }))).toEqual([]);
    expect(await slugs({ filter_expression: { key_value: { schema_id: "kv", key: "color", contains: "red" } } })).toEqual(["c"]);
    expect(await slugs({ filter_expression: { key_value: { not: { schema_id: "kv", key: "year", eq: "2021" } } } })).toEqual([
      "a",
      "b",
    ]);
  });
});

describe("legacy and other filters", () => {
  it("facet strings", async () => {
    expect(await slugs({ filters: ["/l/topic/science"] })).toEqual(["a"]);
    expect(await slugs({ filters: ["/t/draft"] })).toEqual(["b"]);
    expect(await slugs({ filters: ["/n/i/text/html"] })).toEqual(["b"]);
    expect(await slugs({ filters: ["/s/p/fr"] })).toEqual(["b"]);
    expect(await slugs({ filters: ["/m/team/blue"] })).toEqual(["a"]);
    expect(await slugs({ filters: ["/p/docs/reports"] })).toEqual(["a"]);
    expect(await slugs({ filters: ["/u/s/crawler"] })).toEqual(["a"]);
    expect(await slugs({ filters: ["/n/s/PENDING"] })).toEqual([]);
    expect(await slugs({ filters: ["/n/s/PROCESSED"] })).toEqual(["a", "b", "c"]);
    expect(await slugs({ filters: [{ any: ["/t/draft", "/t/report"] }] })).toEqual(["a", "b"]);
    expect(await slugs({ filters: [{ none: ["/t/draft"] }] })).toEqual(["a", "c"]);
  });
  it("fields, field_type_filter, resource_filters, keyword_filters, range_*", async () => {
    expect(await slugs({ fields: ["a/summary"] })).toEqual(["a"]);
    expect(await slugs({ fields: ["u"] })).toEqual(["b"]);
    expect(await slugs({ field_type_filter: ["link"] })).toEqual(["b"]);
    expect(await slugs({ resource_filters: [ids.c] })).toEqual(["c"]);
    expect(await slugs({ keyword_filters: ["beta"] })).toEqual(["c"]);
    expect(await slugs({ range_creation_end: "2000-01-01T00:00:00Z" })).toEqual([]);
    expect(await slugs({ range_modification_start: "2000-01-01T00:00:00Z" })).toEqual(["a", "b", "c"]);
  });
  it("a prefilter still returns top_k when matches exist", async () => {
    const r = await fx.find({
      query: ALL,
      features: ["keyword"],
      top_k: 1,
      filter_expression: { field: { prop: "origin_tag", tag: "draft" } },
    });
    expect(r.best_matches).toHaveLength(1);
  });
});

describe("422s", () => {
  const bad = [
    { field: { prop: "nope" } },
    { field: { prop: "label", labelset: "x", extra: 1 } },
    { paragraph: { prop: "origin_tag", tag: "x" } },
    { field: { and: "x" } },
    { unknown: {} },
    { operator: "xor" },
  ];
  for (const fe of bad) {
    it(JSON.stringify(fe), async () => {
      await expect(fx.find({ query: "x", filter_expression: fe as never })).rejects.toMatchObject({ status: 422 });
    });
  }
  it("bad keyword filter", async () => {
    await expect(fx.find({ query: "x", keyword_filters: ["a*b"] })).rejects.toMatchObject({ status: 422 });
  });
});
