import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { Nuclia, RetrievalAgent } from "@nuclia/core";
import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { seedKb } from "../helpers/seed-kb.js";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK's RetrievalAgent, unchanged, interacting the way it does by default:
// over a WebSocket (an ephemeral token minted for the session, `eph-token` in the URL), and reopening
// with `from_cursor` after an abnormal close. Node 20 has no global WebSocket: the test gives the
// SDK the `ws` package's, as a browser would give its own.
const g = globalThis as { WebSocket?: unknown };
g.WebSocket ??= WebSocket;

let z: RemoteZone;
let nuclia: Nuclia;
let agent: RetrievalAgent;

/**
 * A TCP relay to the daemon that cuts the first WebSocket connection after it has relayed the
 * handshake and `frames` server frames (an abnormal close, 1006, as a dropped network gives).
 */
function cuttingProxy(target: string, frames: number): Promise<{ url: string; wsPaths: string[]; server: Server }> {
  const { hostname, port } = new URL(target);
  const wsPaths: string[] = [];
  const server = createServer((client: Socket) => {
    const up = createConnection({ host: hostname, port: Number(port) });
    client.on("error", () => up.destroy());
    up.on("error", () => client.destroy());
    let cut = false;
    let buf = Buffer.alloc(0);
    let headerDone = false;
    let sent = 0;
    client.once("data", (first: Buffer) => {
      const line = first.toString("latin1").split("\r\n")[0];
      const m = /^GET (\S+\/ws\?\S*) HTTP/.exec(line);
      if (m) {
        wsPaths.push(m[1]);
        cut = wsPaths.length === 1;
      }
      up.write(first);
      client.pipe(up);
    });
    up.on("data", (chunk: Buffer) => {
      if (!cut) return client.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      if (!headerDone) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        headerDone = true;
        client.write(buf.subarray(0, end + 4));
        buf = buf.subarray(end + 4);
      }
      // Server frames are unmasked: a 2-byte header, then a 16- or 64-bit length when 126 or 127.
      while (sent < frames && buf.length >= 2) {
        const len7 = buf[1] & 0x7f;
        const head = len7 === 126 ? 4 : len7 === 127 ? 10 : 2;
        if (buf.length < head) return;
        const len = len7 === 126 ? buf.readUInt16BE(2) : len7 === 127 ? Number(buf.readBigUInt64BE(2)) : len7;
        if (buf.length < head + len) return;
        client.write(buf.subarray(0, head + len));
        buf = buf.subarray(head + len);
        sent++;
      }
      if (sent >= frames) {
        up.destroy();
        client.destroy();
      }
    });
    up.on("close", () => client.destroy());
    client.on("close", () => up.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const a = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${a.port}`, wsPaths, server });
    }),
  );
}

type Item = { type: string; answer?: Record<string, unknown>; detail?: string };
const answersOf = (items: Item[]) => items.flatMap((i) => (i.type === "answer" && i.answer ? [i.answer] : []));

beforeAll(async () => {
  z = await startRemoteZone("europe-9");
  const team = await seedKb(z.d, "team", [
    { slug: "ada", title: "Team", body: "Ada Quill is the chief engineer of the Zephyr project." },
  ]);
  const sites = await seedKb(z.d, "sites", [
    { slug: "lab", title: "Sites", body: "The Zephyr project is built in Porto, in the Ribeira lab." },
  ]);
  nuclia = zoneSdk(z.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
  agent = await firstValueFrom(
    nuclia.db.createRetrievalAgent(z.account.id, { slug: "ws-agent", title: "WS agent", mode: "agent" } as never, z.name),
  );
  for (const [identifier, kbid] of [
    ["team", team.kbid],
    ["sites", sites.kbid],
  ])
    await firstValueFrom(agent.addDriver({ identifier, name: identifier, provider: "local", config: { kbid } } as never));
});
afterAll(async () => {
  await z?.stop();
});

describe("@nuclia/core RetrievalAgent over the WebSocket", () => {
  it("interacts by default over the socket: streamed steps, contexts of both drivers and the answer", async () => {
    const { uuid } = await firstValueFrom(
      agent.createSession({ slug: "ws-1", name: "WS", summary: "", data: "", format: "PLAIN" } as never),
    );
    const items = (await lastValueFrom(
      agent.interact(uuid, "Who is the chief engineer of the Zephyr project and where is it built?").pipe(toArray()),
    )) as Item[];
    expect(items.filter((i) => i.type === "error")).toEqual([]);
    const answers = answersOf(items);
    expect(answers[0].operation).toBe(2);
    expect(answers.at(-1)?.operation).toBe(3);
    const seq = answers.map((a) => a.seqid as number);
    expect(seq).toEqual(seq.map((_, i) => seq[0] + i));
    const steps = answers.flatMap((a) => (a.step ? [(a.step as { module: string }).module] : []));
    expect(steps).toEqual(expect.arrayContaining(["plan", "retrieve", "validate", "generate"]));
    expect(answers.flatMap((a) => (a.context ? [(a.context as { agent: string }).agent] : [])).sort()).toEqual(["sites", "team"]);
    const chunks = answers.flatMap((a) => (a.context ? (a.context as { chunks: { text: string }[] }).chunks : []));
    expect(chunks.map((c) => c.text).join(" ")).toContain("Porto");
    // The extractive answerer (no generative model here) answers from the retrieved sentences.
    expect(answers.find((a) => a.answer)?.answer).toContain("Ada Quill");
    // The SDK opened the socket with a minted ephemeral token.
    const built = (nuclia as unknown as { builtUrls: string[] }).builtUrls;
    expect(built.some((u) => u.endsWith(`/agent/${agent.id}/session/${uuid}/ws`))).toBe(true);
    // A follow-up over the socket uses the session's history.
    const more = answersOf(
      (await lastValueFrom(agent.interact(uuid, "And where is that project built?").pipe(toArray()))) as Item[],
    );
    const rephrase = more.find((a) => (a.step as { module?: string } | undefined)?.module === "rephrase");
    // The earlier turn's words join the query ("that project" leans on it).
    expect((rephrase?.step as { value: string } | undefined)?.value).toMatch(/^And where is that project built .*chief/);
    const s = (await firstValueFrom(agent.getSession(uuid))) as unknown as {
      data: { conversations: { history: { value: { messages: unknown[] } } } };
    };
    expect(s.data.conversations.history.value.messages).toHaveLength(4);
  });

  it("reopens with from_cursor after an abnormal close and gets the rest, the question asked once", async () => {
    const proxy = await cuttingProxy(z.url, 2);
    try {
      const viaProxy = zoneSdk(proxy.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
      const a = await firstValueFrom(viaProxy.db.getRetrievalAgent(z.account.id, agent.id, z.name));
      const { uuid } = await firstValueFrom(
        a.createSession({ slug: "ws-cut", name: "Cut", summary: "", data: "", format: "PLAIN" } as never),
      );
      const items = (await lastValueFrom(a.interact(uuid, "Where is the Zephyr project built?").pipe(toArray()))) as Item[];
      expect(items.filter((i) => i.type === "error")).toEqual([]);
      expect(proxy.wsPaths).toHaveLength(2);
      expect(proxy.wsPaths[0]).not.toContain("from_cursor");
      const answers = answersOf(items);
      // Two frames (start, the plan step) came through the cut socket: the SDK resumed at seqid 3.
      expect(new URL(`http://x${proxy.wsPaths[1]}`).searchParams.get("from_cursor")).toBe(
        String((answers[1].seqid as number) + 1),
      );
      const seq = answers.map((x) => x.seqid as number);
      expect(seq).toEqual(seq.map((_, i) => seq[0] + i));
      expect(answers.at(-1)?.operation).toBe(3);
      expect(answers.find((x) => x.answer)?.answer).toContain("Porto");
      const s = (await firstValueFrom(a.getSession(uuid))) as unknown as {
        data: { conversations: { history: { value: { messages: { content: { text: string } }[] } } } };
      };
      expect(s.data.conversations.history.value.messages.map((m) => m.content.text)[0]).toBe(
        "Where is the Zephyr project built?",
      );
      expect(s.data.conversations.history.value.messages).toHaveLength(2);
    } finally {
      proxy.server.close();
    }
  });

  it("refuses a socket without a token, and a plain GET of the socket route is 426", async () => {
    const path = `/api/v1/agent/${agent.id}/session/ephemeral/ws`;
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${z.url.replace("http", "ws")}${path}`);
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => undefined);
    });
    expect(refused).toBe(401);
    const plain = await fetch(`${z.url}${path}`, { headers: { "x-nuclia-serviceaccount": `Bearer ${z.key}` } });
    expect(plain.status).toBe(426);
    // A plain GET creates no session: an unknown one is 404 before the 426.
    const unknown = await fetch(`${z.url}/api/v1/agent/${agent.id}/session/nope/ws`, {
      headers: { "x-nuclia-serviceaccount": `Bearer ${z.key}` },
    });
    expect(unknown.status).toBe(404);
  });

  it("a token minted for one session opens that session and nothing else of the agent", async () => {
    const headers = { "x-nuclia-serviceaccount": `Bearer ${z.key}`, "content-type": "application/json" };
    const base = `${z.url}/api/v1/agent/${agent.id}`;
    const [mine, other] = await Promise.all(
      ["scoped", "other"].map(async (slug) => {
        const r = await fetch(`${base}/sessions`, {
          method: "POST",
          headers,
          body: JSON.stringify({ slug, name: slug, summary: "", data: "", format: "PLAIN" }),
        });
        expect(r.status).toBe(201);
        return ((await r.json()) as { uuid: string }).uuid;
      }),
    );
    const minted = await fetch(`${z.url}/api/v1/account/${z.account.id}/kb/${agent.id}/ephemeral_tokens`, {
      method: "POST",
      headers,
      body: JSON.stringify({ agent_session: mine }),
    });
    expect(minted.status).toBe(201);
    const { token } = (await minted.json()) as { token: string };
    const statusOf = async (path: string) => (await fetch(`${base}${path}?eph-token=${token}`)).status;
    // Its own session's socket route answers (426: a plain GET, not an upgrade).
    expect(await statusOf(`/session/${mine}/ws`)).toBe(426);
    // Another session's socket (426 to the key: it exists) is refused to this token, as are other routes.
    expect((await fetch(`${base}/session/${other}/ws`, { headers })).status).toBe(426);
    expect(await statusOf(`/session/${other}/ws`)).toBe(403);
    expect(await statusOf(`/session/${mine}x/ws`)).toBe(403);
    expect(await statusOf("/sessions")).toBe(403);
  });

  it("keeps a socket open for several questions with keep_open, stops on quit, and refuses an unknown cursor", async () => {
    const headers = { "x-nuclia-serviceaccount": `Bearer ${z.key}` };
    const base = `${z.url.replace("http", "ws")}/api/v1/agent/${agent.id}/session/kept/ws`;
    const ws = new WebSocket(`${base}?keep_open=true`, { headers });
    const got: Record<string, unknown>[] = [];
    let notify = () => {};
    ws.on("message", (m) => {
      got.push(JSON.parse(String(m)));
      notify();
    });
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        notify = () => got.filter((m) => m.operation === 3).length >= n && resolve();
        notify();
      });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ question: "Who is the chief engineer of the Zephyr project?", operation: 0, headers: {} }));
    await until(1);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.send(JSON.stringify({ question: "Where is the Zephyr project built?", operation: 0, headers: {} }));
    await until(2);
    const answers = got.flatMap((m) => (typeof m.answer === "string" ? [m.answer] : []));
    expect(answers[0]).toContain("Ada Quill");
    expect(answers[1]).toContain("Porto");
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    ws.send(JSON.stringify({ question: "", operation: 1 }));
    expect(await closed).toBe(1000);
    // A session id the agent did not know was created (create_session_if_not_exists), with both turns.
    const s = (await firstValueFrom(agent.getSession("kept"))) as unknown as {
      data: { conversations: { history: { value: { messages: unknown[] } } } };
    };
    expect(s.data.conversations.history.value.messages).toHaveLength(4);

    const late = new WebSocket(`${base}?from_cursor=99999`, { headers });
    const first = await new Promise<Record<string, unknown>>((r) => late.once("message", (m) => r(JSON.parse(String(m)))));
    expect(first.operation).toBe(4);
    expect((first.exception as { detail: string }).detail).toMatch(/Cannot resume from cursor 99999/);
    late.close();
  });

  it("serves the schemas: every module by name and the driver providers, whole (fullschema) and by kind", async () => {
    const schema = (await firstValueFrom(agent.getFullSchemas())) as unknown as {
      title: string;
      properties: Record<string, { items: unknown }>;
    };
    expect(schema.title).toBe("Retrieval agent configuration");
    const text = JSON.stringify(schema);
    for (const name of ["rephrase", "basic_ask", "generate", "remi"]) expect(text).toContain(`"const":"${name}"`);
    expect(text).toContain('"x-kbox-runs":true');
    expect(Object.keys(schema.properties).sort()).toEqual(["drivers", "prompts", "rules", "workflows"]);
    const parts = (await firstValueFrom(agent.getSchemas())) as unknown as {
      agents: Record<string, { title: string }[]>;
      drivers: { properties: { provider: { const: string } } }[];
    };
    expect(parts.agents.generation.map((x) => x.title)).toEqual([
      "generation/summarize",
      "generation/generate",
      "generation/data_viz",
    ]);
    expect(parts.drivers.map((x) => x.properties.provider.const)).toEqual(["local", "nucliadb"]);
  });
});
