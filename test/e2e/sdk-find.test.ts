import { Nuclia, type WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchFixture } from "../helpers/search-fixture.js";

// The upstream JavaScript SDK, unchanged, runs find, search, catalog and suggest against kboxd.
let fx: SearchFixture;
let kb: WritableKnowledgeBox;
let rid: string;

beforeAll(async () => {
  fx = await SearchFixture.start({ slug: "sdk-find" }, { listen: "127.0.0.1:0", trustRolesHeader: true });
  rid = await fx.add(
    {
      title: "Solar panels",
      slug: "solar",
      usermetadata: { relations: [{ relation: "ENTITY", to: { value: "Sunpower", type: "entity", group: "ORG" } }] },
    },
    [{ text: "Solar panels convert sunlight into electricity", vec: [1, 0, 0] }],
  );
  await fx.add({ title: "Wind farms", slug: "wind" }, [{ text: "Wind turbines spin in the breeze", vec: [0, 1, 0] }]);
  const nuclia = new Nuclia({
    backend: `${fx.d.url}/api`,
    standalone: true,
    zone: "local",
    account: "local",
  } as ConstructorParameters<typeof Nuclia>[0]);
  kb = await firstValueFrom(nuclia.db.getKnowledgeBox("local", fx.kbid));
});
afterAll(async () => fx?.stop());

describe("@nuclia/core search calls", () => {
  it("find", async () => {
    const r = (await firstValueFrom(kb.find("sunlight electricity", ["keyword" as never]))) as {
      type: string;
      resources?: Record<
        string,
        { title?: string; fields: Record<string, { paragraphs: Record<string, { text: string; score_type: string }> }> }
      >;
    };
    expect(r.type).toBe("findResults");
    expect(Object.keys(r.resources ?? {})).toEqual([rid]);
    const p = Object.values(r.resources?.[rid].fields["/t/body"].paragraphs ?? {})[0];
    expect(p.text).toBe("Solar panels convert sunlight into electricity");
    expect(p.score_type).toBe("BM25");
  });
  it("find with filters and a vector", async () => {
    const r = (await firstValueFrom(kb.find("", ["semantic" as never], { vector: [0, 1, 0], top_k: 1 } as never))) as {
      type: string;
      best_matches?: string[];
    };
    expect(r.type).toBe("findResults");
    expect(r.best_matches).toHaveLength(1);
    expect(r.best_matches?.[0]).not.toContain(rid);
  });
  it("search", async () => {
    const r = (await firstValueFrom(kb.search("turbines", ["keyword" as never, "fulltext" as never]))) as {
      type: string;
      paragraphs?: { results: { text: string }[] };
      fulltext?: { results: unknown[] };
    };
    expect(r.type).toBe("searchResults");
    expect(r.paragraphs?.results.map((p) => p.text)).toEqual(["Wind turbines spin in the breeze"]);
    expect(r.fulltext?.results).toHaveLength(1);
  });
  it("catalog", async () => {
    const r = (await firstValueFrom(kb.catalog("solar"))) as { type: string; resources?: Record<string, { title: string }> };
    expect(r.type).toBe("searchResults");
    expect(Object.values(r.resources ?? {}).map((x) => x.title)).toEqual(["Solar panels"]);
  });
  it("suggest", async () => {
    const r = (await firstValueFrom(kb.suggest("sunp"))) as { type: string; entities?: { entities: unknown[] } };
    expect(r.type).toBe("suggestions");
    expect(r.entities?.entities).toEqual([{ value: "Sunpower", family: "ORG" }]);
  });
});
