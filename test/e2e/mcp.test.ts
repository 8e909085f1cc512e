import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accounts from "../../src/api/accounts.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { fetchJson } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let kbid: string;
let rids: Record<string, string>;
const inYear = () => new Date(Date.now() + 365 * 86400e3).toISOString();

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0", env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "notes"));
});
afterAll(async () => {
  await d?.stop();
});

/** A key of a service account scoped to the test's knowledge box. */
async function keyFor(role: accounts.KbRole): Promise<string> {
  const scope = { account_id: "local", kb_id: kbid };
  const { id } = await d.client.call(accounts.createServiceAccount, { params: scope, body: { title: role, role } });
  return (await d.client.call(accounts.createServiceAccountKey, { params: { ...scope, sa_id: id }, body: { expires: inYear() } }))
    .token;
}

async function httpClient(token: string): Promise<Client> {
  const client = new Client({ name: "kbox-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${d.url}/api/v1/kb/${kbid}/mcp`), {
    requestInit: { headers: { "X-PLATFORM-SERVICEACCOUNT": `Bearer ${token}`, "x-platform-client": "desktop" } },
  });
  await client.connect(transport);
  return client;
}

type Structured = Record<string, any>;
const textOf = (r: { content?: unknown }) => ((r.content as { text: string }[])[0]?.text ?? "") as string;

describe("a knowledge box as an MCP server over streamable HTTP", () => {
  it("refuses a request without a key (401) and a malformed session id (404)", async () => {
    const none = await fetchJson(`${d.url}/api/v1/kb/${kbid}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(none.status).toBe(401);
    const token = await keyFor("SMEMBER");
    const stale = await fetchJson(`${d.url}/api/v1/kb/${kbid}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-platform-serviceaccount": `Bearer ${token}`,
        "mcp-session-id": "not-a-session",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(stale.status).toBe(404);
  });

  it("gives a reader the read tools, a cited answer and ranked paragraphs", async () => {
    const client = await httpClient(await keyFor("SMEMBER"));
    expect(client.getServerVersion()?.name).toBe("kbox-notes");
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      "ask",
      "batch_get_documents",
      "get_document",
      "list_documents",
      "search_documents",
    ]);
    for (const t of tools) expect(t.description?.length ?? 0).toBeGreaterThan(60);

    const found = await client.callTool({
      name: "search_documents",
      arguments: { query: "when does the team ship a release", top_k: 3 },
    });
    expect(found.isError).toBeFalsy();
    const hits = (found.structuredContent as Structured).results;
    expect(hits[0]).toMatchObject({ rank: 1, resource_id: rids.shipping, title: "Release planning" });
    expect(hits[0].uri).toBe(`kbox://${kbid}/${rids.shipping}`);
    const friday = hits.find((h: Structured) => h.text.includes("every Friday afternoon"));
    expect(friday).toMatchObject({ resource_id: rids.shipping, field: "/t/body" });
    expect(textOf(found)).toContain("every Friday afternoon");

    const answered = await client.callTool({ name: "ask", arguments: { question: "When does the team ship a new release?" } });
    expect(answered.isError).toBeFalsy();
    const a = answered.structuredContent as Structured;
    expect(a.answer).toContain("Friday");
    expect(a.citations.length).toBeGreaterThan(0);
    expect(a.citations[0]).toMatchObject({ n: 1, resource_id: rids.shipping, title: "Release planning" });
    expect(a.citations.some((c: Structured) => c.text.includes("every Friday afternoon"))).toBe(true);
    expect(textOf(answered)).toMatch(/Citations:\n\[1\] Release planning/);

    // Filters narrow a find: only the office guide.
    const narrowed = await client.callTool({
      name: "search_documents",
      arguments: { query: "release Friday office", resource_ids: [rids.office] },
    });
    expect(new Set((narrowed.structuredContent as Structured).results.map((h: Structured) => h.resource_id))).toEqual(
      new Set([rids.office]),
    );

    // A paragraph and a document by URI, with their text; the catalog; resources by URI.
    const para = await client.callTool({ name: "get_document", arguments: { name: friday.paragraph_id } });
    expect((para.structuredContent as Structured).text).toBe(friday.text);
    const doc = await client.callTool({ name: "get_document", arguments: { name: `kbox://${kbid}/${rids.cats}` } });
    expect((doc.structuredContent as Structured).text).toContain("Cats purr because it calms them");
    const bySlug = await client.callTool({ name: "batch_get_documents", arguments: { names: ["office", "no-such-doc"] } });
    const docs = (bySlug.structuredContent as Structured).documents;
    expect(docs[0].title).toBe("Office guide");
    expect(docs[1].error).toMatch(/does not exist/);
    const listed = await client.callTool({ name: "list_documents", arguments: {} });
    expect((listed.structuredContent as Structured).total).toBe(3);
    const res = await client.listResources();
    expect(res.resources.map((r) => r.uri)).toContain(`kbox://${kbid}/${rids.office}`);
    const read = await client.readResource({ uri: `kbox://${kbid}/${rids.office}` });
    expect((read.contents[0] as { text: string }).text).toContain("Rua Augusta 120");

    const missing = await client.callTool({ name: "get_document", arguments: { name: "no-such-doc" } });
    expect(missing.isError).toBe(true);
    await client.close();
  });

  it("gives a writer the add tools, and what it adds becomes searchable", async () => {
    const client = await httpClient(await keyFor("SCONTRIBUTOR"));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["add_text", "add_url"]));
    const added = await client.callTool({
      name: "add_text",
      arguments: { title: "Parking", text: "Bicycles are parked in the basement garage next to the lockers." },
    });
    expect(added.isError).toBeFalsy();
    const rid = (added.structuredContent as Structured).resource_id as string;
    let hits: Structured[] = [];
    for (let i = 0; i < 100 && !hits.some((h) => h.resource_id === rid); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await client.callTool({ name: "search_documents", arguments: { query: "where are bicycles parked" } });
      hits = (r.structuredContent as Structured).results;
    }
    expect(hits[0]?.resource_id).toBe(rid);
    await client.close();
  });
});

describe("kbox mcp over stdio", () => {
  it("serves the knowledge box to the SDK's stdio client through the daemon socket", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", join(import.meta.dirname, "../../bin/kbox.ts"), "mcp", "--kb", "notes"],
      env: { ...(process.env as Record<string, string>), ...(d.env as Record<string, string>) },
      stderr: "pipe",
    });
    const client = new Client({ name: "kbox-test-stdio", version: "1.0.0" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    // The socket's owner may write.
    expect(names).toEqual(expect.arrayContaining(["search_documents", "ask", "get_document", "list_documents", "add_text"]));
    const found = await client.callTool({ name: "search_documents", arguments: { query: "how many desks are in the building" } });
    expect((found.structuredContent as Structured).results[0].text).toContain("42 desks");
    const answered = await client.callTool({ name: "ask", arguments: { question: "How many desks are in the building?" } });
    const a = answered.structuredContent as Structured;
    expect(a.answer).toContain("42");
    expect(a.citations[0]).toMatchObject({ resource_id: rids.office });
    // The daemon forgets every session (as after a restart): the relay opens a new one by itself.
    await d.daemon.services.mcp.close();
    expect(d.daemon.services.mcp.size).toBe(0);
    const again = await client.callTool({ name: "get_document", arguments: { name: "cats" } });
    expect((again.structuredContent as Structured).title).toBe("Cat care");
    expect(d.daemon.services.mcp.size).toBe(1);
    await client.close();
  }, 60_000);
});
