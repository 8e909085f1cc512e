import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import * as agentic from "../../src/api/agentic-configs.js";
import * as sources from "../../src/api/sources.js";
import { seedKb } from "../helpers/seed-kb.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

// The agentic ask socket (WS /kb/{kbid}/ask) over TCP with a service-account key: each question is an
// ask with the socket's agentic configuration, streamed as AragAnswer messages.
let z: RemoteZone;
let kbid: string;
let rids: Record<string, string>;
let headers: Record<string, string>;

beforeAll(async () => {
  z = await startRemoteZone("agentic-ws");
  headers = { "x-nuclia-serviceaccount": `Bearer ${z.key}` };
  ({ kbid, rids } = await seedKb(z.d, "agentic-ws"));
  const c = z.d.client;
  await c.call(sources.createSource, {
    params: { kbid, source_id: "cats" },
    body: { type: "nucliadb", filter_expression: { field: { prop: "resource", id: rids.cats } } },
  });
  await c.call(sources.createSource, { params: { kbid, source_id: "web" }, body: { type: "google" } });
  await c.call(agentic.createAgenticConfig, {
    params: { kbid, agentic_id: "cats" },
    body: { smart_agent: { sources: ["cats"] } },
  });
  await c.call(agentic.createAgenticConfig, { params: { kbid, agentic_id: "web" }, body: { smart_agent: { sources: ["web"] } } });
});
afterAll(async () => {
  await z?.stop();
});

const url = (q: string) => `${z.url.replace("http", "ws")}/api/v1/kb/${kbid}/ask?${q}`;
/** The HTTP status a handshake was refused with. */
const refused = (q: string) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(url(q), { headers });
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("open", () => reject(new Error("the socket opened")));
  });

describe("the agentic ask socket", () => {
  it("answers each question with the configuration's sources, streaming a step and the answer, until quit", async () => {
    const ws = new WebSocket(url("agentic_config_id=cats&keep_open=true"), { headers });
    const got: Record<string, any>[] = [];
    let notify = () => {};
    ws.on("message", (m) => {
      got.push(JSON.parse(String(m)));
      notify();
    });
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        notify = () => got.filter((m) => m.operation === 3 || m.operation === 4).length >= n && resolve();
        notify();
      });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ question: "How long do cats sleep?", operation: 0, headers: {} }));
    await until(1);
    expect(got[0].operation).toBe(2);
    const step = got.find((m) => m.step)?.step;
    expect(step.title).toBe("retrieval");
    expect(step.value).toMatch(/^1 resources/);
    const answer = got.find((m) => typeof m.answer === "string")?.answer;
    expect(answer).toMatch(/12 and 16 hours/);
    expect(got.at(-1)?.operation).toBe(3);
    expect(got.map((m) => m.seqid)).toEqual(got.map((_, i) => i + 1));
    // Scoped to the cats source: the office guide is not found, even for a question about it.
    const before = got.length;
    ws.send(JSON.stringify({ question: "Where is the office?", operation: 0, headers: {} }));
    await until(2);
    const second = got.slice(before);
    expect(second.find((m) => m.step)?.step.value).toMatch(/^[01] resources/);
    expect(second.find((m) => typeof m.answer === "string")?.answer ?? "").not.toContain("Lisbon");
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    ws.send(JSON.stringify({ question: "", operation: 1 }));
    expect(await closed).toBe(1000);
  });

  it("refuses before the handshake: unknown configuration 400, a web-search source 400, no key 401; plain GET 426", async () => {
    expect(await refused("agentic_config_id=nope")).toBe(400);
    expect(await refused("agentic_config_id=web")).toBe(400);
    const anonymous = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url("agentic_config_id=cats"));
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    });
    expect(anonymous).toBe(401);
    const plain = await fetch(`${z.url}/api/v1/kb/${kbid}/ask?agentic_config_id=cats`, { headers });
    expect(plain.status).toBe(426);
  });
});
