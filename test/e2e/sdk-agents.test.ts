import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Nuclia, RetrievalAgent } from "@nuclia/core";
import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedKb } from "../helpers/seed-kb.js";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK's RetrievalAgent, unchanged, in zone mode against kboxd. The agent's
// driver reaches its knowledge box over HTTP with the zone's key (the remote provider), here the
// same daemon's TCP listener (private addresses allowed for the test).
let z: RemoteZone;
let nuclia: Nuclia;
let agent: RetrievalAgent;
let kbid: string;
let session: string;

beforeAll(async () => {
  z = await startRemoteZone("europe-7", { KBOX_FETCH_ALLOW_PRIVATE: "1" });
  ({ kbid } = await seedKb(z.d, "handbook", [
    {
      slug: "boats",
      title: "Boats",
      body: "The ferry Gaivota crosses the river every 20 minutes.\n\nTickets for the Gaivota cost 2 euros.",
    },
  ]));
  nuclia = zoneSdk(z.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
});
afterAll(async () => {
  await z?.stop();
});

describe("@nuclia/core RetrievalAgent against kboxd", () => {
  it("creates an agent through the account API and lists it as one", async () => {
    agent = await firstValueFrom(
      nuclia.db.createRetrievalAgent(z.account.id, { slug: "sdk-agent", title: "SDK agent", mode: "agent" } as never, z.name),
    );
    expect(agent.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(agent.path).toBe(`/agent/${agent.id}`);
    const list = await firstValueFrom(nuclia.db.getRetrievalAgentsForZone(z.account.id, z.name));
    expect(list.map((a) => a.slug)).toEqual(["sdk-agent"]);
  });

  it("adds a driver to a knowledge box behind a URL and key; the key is never read back", async () => {
    await firstValueFrom(
      agent.addDriver({
        identifier: "handbook",
        name: "Handbook",
        provider: "nucliadb",
        config: { url: z.url, kbid, key: z.key, description: "the handbook" },
      } as never),
    );
    const drivers = await firstValueFrom(agent.getDrivers());
    expect(drivers).toEqual([{ url: z.url, kbid, description: "the handbook" }]);
  });

  it("creates a session, interacts over POST, and keeps the history", async () => {
    const created = await firstValueFrom(
      agent.createSession({ slug: "chat-1", name: "Chat", summary: "", data: "", format: "PLAIN" } as never),
    );
    session = created.uuid;
    const items = await lastValueFrom(
      agent.interact(session, "How much does a ticket for the Gaivota cost?", "default", "POST").pipe(toArray()),
    );
    const answers = items.flatMap((i) => (i.type === "answer" ? [i.answer] : []));
    expect(items.some((i) => i.type === "error")).toBe(false);
    const final = answers.find((a) => a.answer);
    expect(final?.answer).toContain("2 euros");
    expect(final?.steps?.map((s: { module: string }) => s.module)).toContain("retrieve");
    const page = await firstValueFrom(agent.listSessions());
    expect(page.sessions.map((s) => s.id)).toEqual([session]);
    const s = (await firstValueFrom(agent.getSession(session))) as unknown as {
      title: string;
      data: { conversations: { history: { value: { messages: { content: { text: string } }[] } } } };
    };
    expect(s.title).toBe("Chat");
    expect(s.data.conversations.history.value.messages.map((m) => m.content.text)[0]).toBe(
      "How much does a ticket for the Gaivota cost?",
    );
  });

  it("sets rules, workflows and modules, and requests an audit download", async () => {
    await firstValueFrom(agent.setRules(["Answer in one sentence."]));
    expect(await firstValueFrom(agent.getRules())).toEqual(["Answer in one sentence."]);
    await firstValueFrom(agent.createWorkflow({ id: "short", name: "Short", required: [] } as never));
    expect((await firstValueFrom(agent.getWorkflows())).map((w) => w.id)).toEqual(["default", "short"]);
    const { id } = await firstValueFrom(agent.addGeneration({ module: "generate", title: "Answer" } as never, "short"));
    expect((await firstValueFrom(agent.getGeneration("short"))).map((m) => m.id)).toEqual([id]);
    const now = new Date();
    const dl = await firstValueFrom(
      agent.requestActivityDownload({ format: "ndjson", year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 } as never),
    );
    expect(dl).toMatchObject({ status: "ready", format: "application/x-ndjson" });
    const file = await fetch(`${z.url}${dl.download_url}`, { headers: { "x-nuclia-serviceaccount": `Bearer ${z.key}` } });
    const rows = (await file.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.question)).toEqual(["How much does a ticket for the Gaivota cost?"]);
    expect((await firstValueFrom(agent.getDownloads())).map((x) => x.id)).toEqual([dl.id]);
  });

  it("serves the agent session as an MCP server whose ask_agent continues the session", async () => {
    const client = new Client({ name: "kbox-test", version: "1.0.0" });
    const url = new URL(`${z.url}/api/v1/agent/${agent.id}/session/${session}/mcp`);
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { "x-nuclia-serviceaccount": `Bearer ${z.key}` } } }),
    );
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["ask_agent", "session_history"]);
    const r = await client.callTool({
      name: "ask_agent",
      arguments: { question: "How often does the Gaivota cross the river?" },
    });
    const text = (r.content as { text: string }[])[0].text;
    expect(text).toContain("20 minutes");
    expect(text).toContain("Sources:\n- handbook:");
    const h = await client.callTool({ name: "session_history", arguments: {} });
    expect((h.content as { text: string }[])[0].text).toContain("USER: How often does the Gaivota cross the river?");
    await client.close();
    // Without a key: 401.
    const anon = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anon.status).toBe(401);
  });
});
