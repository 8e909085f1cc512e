import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as search from "../../../src/api/search.js";
import { SearchFixture } from "../../helpers/search-fixture.js";

let fx: SearchFixture;

beforeAll(async () => {
  fx = await SearchFixture.start();
  const add = (slug: string, body: Record<string, unknown>) =>
    fx.add({ slug, title: slug, ...body }, [{ text: `alpha ${slug}` }, { text: `alpha more of ${slug}`, field: "t/more" }]);
  await add("a", {
    usermetadata: { classifications: [{ labelset: "topic", label: "science" }] },
    origin: { tags: ["report", "q3"], source_id: "crawler", path: "/docs/reports/a.pdf" },
  });
  await add("b", {
    usermetadata: { classifications: [{ labelset: "topic", label: "art" }] },
    origin: { tags: ["report"], source: "upload", path: "/docs/b.txt" },
  });
  // source_id and source both set, and different: the resource counts under both, and each filter finds it.
  await add("c", {
    usermetadata: { classifications: [{ labelset: "topic", label: "science" }] },
    origin: { source_id: "crawler", source: "web", path: "/other/c.txt" },
  });
  await add("d", { origin: { tags: ["q3"] } });
});
afterAll(async () => fx?.stop());

const catalog = (body: Record<string, unknown>) =>
  fx.d.client.call(search.catalog, { params: { kbid: fx.kbid }, body: { page_size: 100, ...body } });

/** Resources a filtered find returns (every paragraph says "alpha"). */
async function found(filter: string): Promise<number> {
  const r = await fx.find({ query: "alpha", features: ["keyword"], top_k: 100, filters: [filter] });
  return Object.keys(r.resources).length;
}

describe("one facet definition for catalog and filters", () => {
  it("a catalog facet count is the number of resources the same filter finds, in catalog and in find", async () => {
    const prefixes = ["/l/topic", "/t", "/u/s", "/p/docs", "/n/s"];
    const facets = (await catalog({ faceted: prefixes })).fulltext?.facets as Record<string, Record<string, number>>;
    const counted = Object.values(facets).flatMap((m) => Object.entries(m));
    expect(Object.fromEntries(counted)).toEqual({
      "/l/topic/science": 2,
      "/l/topic/art": 1,
      "/t/report": 2,
      "/t/q3": 2,
      "/u/s/crawler": 2,
      "/u/s/upload": 1,
      "/u/s/web": 1,
      "/p/docs/reports": 1,
      "/p/docs/b.txt": 1,
      "/n/s/PROCESSED": 4,
    });
    for (const [facet, n] of counted) {
      expect((await catalog({ filters: [facet] })).fulltext?.total, `catalog ${facet}`).toBe(n);
      expect(await found(facet), `find ${facet}`).toBe(n);
    }
  });
});
