import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentic from "../../src/api/agentic-configs.js";
import * as sources from "../../src/api/sources.js";
import { ApiError } from "../../src/client/errors.js";
import { ask, itemOf } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let kbid: string;
let rids: Record<string, string>;

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "sources"));
});
afterAll(async () => {
  await d?.stop();
});

const params = (source_id: string) => ({ kbid, source_id });
async function failure(p: Promise<unknown>): Promise<{ status: number; detail: any }> {
  try {
    await p;
    return { status: 200, detail: undefined };
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, detail: e.detail as any };
    throw e;
  }
}
const call = <T>(def: T, args: Record<string, unknown>) => d.client.call(def as never, args as never) as Promise<any>;
const resources = async (body: Record<string, unknown>) => {
  const r = await ask(d, kbid, { features: ["keyword"], ...body });
  expect(r.status).toBe(200);
  return Object.keys(itemOf(r.items, "retrieval")?.results.resources ?? {});
};

describe("knowledge-box sources", () => {
  it("are created, read, listed, updated and deleted, their body checked by type", async () => {
    const office = { type: "nucliadb", description: "The office guide", filter_expression: null };
    await call(sources.createSource, { params: params("office"), body: office });
    expect((await failure(call(sources.createSource, { params: params("office"), body: office }))).status).toBe(409);
    await call(sources.createSource, {
      params: params("web"),
      body: { type: "google", time_range: "past_week", exclude_domains: ["example.com"] },
    });
    expect(await call(sources.getSource, { params: params("office") })).toEqual({
      type: "nucliadb",
      description: "The office guide",
    });
    await call(sources.updateSource, { params: params("web"), body: { time_range: "past_day", exclude_domains: null } });
    expect(await call(sources.listSources, { params: { kbid } })).toEqual({
      office: { type: "nucliadb", description: "The office guide" },
      web: { type: "google", time_range: "past_day" },
    });
    // Unknown type, a member of the wrong shape, a missing required member: 422, located.
    const unknown = await failure(call(sources.createSource, { params: params("x"), body: { type: "bing" } }));
    expect(unknown.status).toBe(422);
    expect(unknown.detail[0].loc).toEqual(["body", "type"]);
    const range = await failure(call(sources.updateSource, { params: params("web"), body: { time_range: "yesterday" } }));
    expect(range.status).toBe(422);
    expect(range.detail[0].loc).toEqual(["body", "time_range"]);
    const mcp = await failure(call(sources.createSource, { params: params("x"), body: { type: "mcp" } }));
    expect(mcp.status).toBe(422);
    expect(mcp.detail[0].loc).toEqual(["body", "uri"]);
    const filter = await failure(
      call(sources.createSource, {
        params: params("x"),
        body: { type: "nucliadb", filter_expression: { field: { prop: "nope" } } },
      }),
    );
    expect(filter.status).toBe(422);
    expect(filter.detail[0].loc.slice(0, 2)).toEqual(["body", "filter_expression"]);
    expect((await failure(call(sources.getSource, { params: params("x") }))).status).toBe(404);
    expect((await failure(call(sources.updateSource, { params: params("x"), body: {} }))).status).toBe(404);
    expect((await failure(call(sources.deleteSource, { params: params("x") }))).status).toBe(404);
    await call(sources.deleteSource, { params: params("office") });
    await call(sources.deleteSource, { params: params("web") });
    expect(await call(sources.listSources, { params: { kbid } })).toEqual({});
  });

  it("scope an ask to a filtered nucliadb source; a web-search source answers 400 saying why", async () => {
    const scope = (slug: string) => ({ field: { prop: "resource", id: rids[slug] } });
    await call(sources.createSource, { params: params("cats"), body: { type: "nucliadb", filter_expression: scope("cats") } });
    await call(sources.createSource, {
      params: params("office"),
      body: { type: "nucliadb", filter_expression: scope("office") },
    });
    await call(sources.createSource, { params: params("search"), body: { type: "perplexity" } });
    await call(agentic.createAgenticConfig, {
      params: { kbid, agentic_id: "cats" },
      body: { smart_agent: { sources: ["cats"] } },
    });
    await call(agentic.createAgenticConfig, {
      params: { kbid, agentic_id: "both" },
      body: { smart_agent: { sources: ["cats", "office"] } },
    });
    await call(agentic.createAgenticConfig, {
      params: { kbid, agentic_id: "web" },
      body: { smart_agent: { sources: ["search"] } },
    });

    // "office" is in the office guide: unscoped it is found; scoped to the cats source it is not.
    expect(await resources({ query: "office" })).toContain(rids.office);
    expect(await resources({ query: "office", agentic_config_id: "cats" })).not.toContain(rids.office);
    expect(await resources({ query: "office", agentic_config_id: "both" })).toContain(rids.office);

    const web = await ask(d, kbid, { query: "office", agentic_config_id: "web" });
    expect(web.status).toBe(400);
    expect(JSON.stringify(web.json)).toContain("Source search is of type perplexity");
  });

  it("updating an agentic config to an unknown source is 422; deleting a source deletes the configs naming it", async () => {
    const bad = await failure(
      call(agentic.updateAgenticConfig, {
        params: { kbid, agentic_id: "cats" },
        body: { smart_agent: { sources: ["cats", "gone"] } },
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.detail[0].loc).toEqual(["body", "smart_agent", "sources", 1]);
    await call(sources.deleteSource, { params: params("cats") });
    expect(Object.keys(await call(agentic.listAgenticConfigs, { params: { kbid } }))).toEqual(["web"]);
    expect(Object.keys(await call(sources.listSources, { params: { kbid } }))).toEqual(["office", "search"]);
  });

  it("are managed from the CLI: kbox kb source create|list|show|update|delete", async () => {
    const kb = ["--kb", "sources"];
    const created = await d.cli(["kb", "source", "create", "notes", "--type", "nucliadb", "--description", "All notes", ...kb]);
    expect(created.code).toBe(0);
    const listed = await d.cli(["kb", "source", "list", ...kb]);
    expect(listed.stdout).toMatch(/notes\s+nucliadb\s+All notes/);
    await d.cli(["kb", "source", "update", "notes", "--config", '{"description":null,"labels":["a"]}', ...kb]);
    expect(JSON.parse((await d.cli(["kb", "source", "show", "notes", ...kb])).stdout)).toEqual({
      type: "nucliadb",
      labels: ["a"],
    });
    expect((await d.cli(["kb", "source", "create", "x", ...kb])).code).toBe(2);
    const bad = await d.cli(["kb", "source", "create", "x", "--type", "bing", ...kb]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("type");
    expect((await d.cli(["kb", "source", "delete", "notes", ...kb])).code).toBe(0);
    expect(JSON.parse((await d.cli(["kb", "source", "list", "--json", ...kb])).stdout)).not.toHaveProperty("notes");
  });
});
