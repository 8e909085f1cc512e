import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// Through the public API only: ingestion (text field → paragraphs) and find.
let d: TestDaemon;
let kbid: string;
let rid: string;

async function processed(id: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const r = await d.client.call(resources.getResource.byId, { params: { kbid, rid: id }, query: {} });
    if ((r.metadata as { status: string }).status !== "PENDING") return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("not processed");
}

beforeAll(async () => {
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "e2e-find" } })).uuid;
  const body = (title: string, text: string, tag: string) => ({
    title,
    origin: { tags: [tag] },
    texts: { body: { body: text, format: "PLAIN" as const } },
  });
  rid = (
    await d.client.call(resources.createResource, {
      params: { kbid },
      body: body("Release notes", "The new scheduler ships on Friday.\n\nIt replaces the cron jobs.", "eng"),
    })
  ).uuid;
  const other = (
    await d.client.call(resources.createResource, {
      params: { kbid },
      body: body("Cooking", "Bake the bread on Friday morning.", "home"),
    })
  ).uuid;
  await Promise.all([processed(rid), processed(other)]);
});
afterAll(async () => d?.stop());

describe("find over ingested resources", () => {
  it("finds a processed text field by keyword, with highlight and the title field", async () => {
    const r = await d.client.call(find.find, {
      params: { kbid },
      body: { query: "scheduler shipping", features: ["keyword"], highlight: true },
    });
    expect(r.best_matches[0].startsWith(`${rid}/t/body/`)).toBe(true);
    const p = r.resources[rid].fields["/t/body"].paragraphs[r.best_matches[0]];
    expect(p.text).toContain("<mark>scheduler</mark> <mark>ships</mark>");
    expect(r.resources[rid].title).toBe("Release notes");
  });
  it("filters by origin tag and finds titles", async () => {
    const r = await d.client.call(find.find, {
      params: { kbid },
      body: { query: "friday", features: ["keyword"], filter_expression: { field: { prop: "origin_tag", tag: "home" } } },
    });
    expect(Object.keys(r.resources)).toHaveLength(1);
    expect(Object.keys(r.resources)[0]).not.toBe(rid);
    const t = await d.client.call(find.find, {
      params: { kbid },
      body: { query: "release notes", features: ["keyword"], fields: ["a/title"] },
    });
    expect(t.best_matches).toEqual([expect.stringMatching(new RegExp(`^${rid}/a/title/`))]);
  });
  it("a PATCH of labels takes effect in filters at once", async () => {
    await d.client.call(resources.updateResource.byId, {
      params: { kbid, rid },
      body: { usermetadata: { classifications: [{ labelset: "area", label: "ops" }] } },
    });
    const r = await d.client.call(find.find, {
      params: { kbid },
      body: { query: "friday", features: ["keyword"], filters: ["/l/area/ops"] },
    });
    expect(Object.keys(r.resources)).toEqual([rid]);
  });
});
