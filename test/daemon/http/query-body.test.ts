/**
 * GET forms of POST routes (find, search, catalog): the body as query parameters, turned into it by
 * mount (bodyKind "query"), validated by the same schema with problems located under `query`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountedRoutes } from "../../../daemon/http/registry.js";
import { buildQuery } from "../../../src/api/url.js";
import { type PortlessApp, startPortlessApp } from "../../helpers/app.js";

let t: PortlessApp;
let kb: string;
beforeAll(async () => {
  t = await startPortlessApp();
  kb = (await t.services.kbs.create({ slug: "gets" })).uuid;
  await t.services.resources.create(kb, { slug: "r1", title: "Quarterly revenue", texts: { t: { body: "Revenue grew." } } });
  await t.services.processing.idle();
});
afterAll(async () => t?.close());

const getForms = () => mountedRoutes(t.app).filter((d) => d.bodyKind === "query");

describe("GET query as body", () => {
  it("is declared on GET routes that have a POST twin with the same body schema", () => {
    const routes = mountedRoutes(t.app);
    expect(getForms().map((d) => d.path.split("/").pop())).toEqual(expect.arrayContaining(["find", "search", "catalog"]));
    for (const get of getForms()) {
      expect(get.method).toBe("GET");
      const post = routes.find((d) => d.method === "POST" && d.path === get.path);
      expect(post?.body, get.path).toBe(get.body);
    }
  });

  it("answers a GET as it answers the POST of the same members", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["find", { query: "revenue", top_k: 5, features: ["keyword"] }],
      ["search", { query: "revenue", features: ["fulltext"], faceted: ["/icon"] }],
      ["catalog", { query: "Quarterly", faceted: ["/icon"], page_size: 10 }],
    ];
    const strip = (r: Record<string, unknown>) => JSON.stringify({ ...r, metrics: undefined, nodes: undefined });
    for (const [name, body] of cases) {
      const path = `/api/v1/kb/${kb}/${name}`;
      const post = await t.request("POST", path, { body });
      const get = await t.request("GET", `${path}${buildQuery(body)}`);
      expect([post.status, get.status], name).toEqual([200, 200]);
      const answer = await get.json();
      expect(Object.keys(answer.resources), name).toHaveLength(1);
      expect(strip(answer), name).toBe(strip(await post.json()));
    }
  });

  it("answers 422 located under query for a member the body schema refuses", async () => {
    for (const [name, q] of [
      ["find", "top_k=abc"],
      ["search", "page_size=0"],
      ["catalog", "page_number=-1"],
    ]) {
      const res = await t.request("GET", `/api/v1/kb/${kb}/${name}?${q}`);
      expect(res.status, name).toBe(422);
      const detail = (await res.json()).detail as { loc: string[] }[];
      expect(detail[0].loc.slice(0, 2), name).toEqual(["query", q.split("=")[0]]);
    }
  });
});
