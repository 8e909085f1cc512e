import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import type { KboxClient } from "../client/client.js";
import * as api from "../client/routes/mcp.js";
import { readAll } from "../client/transport.js";

export interface McpOptions {
  kb?: string;
}

type Message = JSONRPCMessage & { id?: string | number; method?: string; result?: { protocolVersion?: string } };

/**
 * A stdio MCP server for desktop clients that relays each JSON-RPC message to the knowledge box's
 * MCP endpoint (over the daemon's socket, as its owner, or a remote profile with its key), so the
 * tools are the daemon's own. A session the daemon forgot (it restarted) is opened again.
 */
class Relay {
  private session?: string;
  private protocol?: string;
  private init?: Message;
  private ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: KboxClient,
    private readonly kbid: string,
    private readonly reply: (m: JSONRPCMessage) => Promise<void>,
  ) {}

  private async post(msg: Message): Promise<{ status: number; messages: Message[]; detail?: string }> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-platform-client": "desktop",
    };
    if (this.session) headers["mcp-session-id"] = this.session;
    if (this.protocol) headers["mcp-protocol-version"] = this.protocol;
    const res = await this.client.exchange(api.mcpPost, { params: { kbid: this.kbid }, headers, body: JSON.stringify(msg) });
    const text = (await readAll(res.body)).toString("utf8");
    const sid = res.headers["mcp-session-id"];
    if (typeof sid === "string") this.session = sid;
    if (!text.trim()) return { status: res.status, messages: [] };
    const type = String(res.headers["content-type"] ?? "");
    const docs = type.includes("text/event-stream")
      ? text
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(text)];
    const messages = docs.flat().filter((d) => d && typeof d === "object" && d.jsonrpc === "2.0") as Message[];
    const detail = messages.length ? undefined : String((docs[0] as { detail?: unknown })?.detail ?? text);
    return { status: res.status, messages, detail };
  }

  /** Relay one client message and its answers; an initialize first, everything else once it is done. */
  async forward(msg: Message): Promise<void> {
    if (msg.method === "initialize") {
      this.init = msg;
      this.session = undefined;
      this.ready = this.send(msg);
      return this.ready;
    }
    await this.ready;
    return this.send(msg);
  }

  private async send(msg: Message, retry = true): Promise<void> {
    let r: Awaited<ReturnType<Relay["post"]>>;
    try {
      r = await this.post(msg);
    } catch (e) {
      r = { status: 503, messages: [], detail: (e as Error).message };
    }
    if (r.status === 404 && this.session && this.init && retry) {
      // The daemon no longer knows the session (it restarted): open a new one, then send again.
      this.session = undefined;
      await this.post(this.init);
      await this.post({ jsonrpc: "2.0", method: "notifications/initialized" } as Message);
      return this.send(msg, false);
    }
    for (const m of r.messages) {
      if (msg.method === "initialize" && m.result?.protocolVersion) this.protocol = m.result.protocolVersion;
      await this.reply(m);
    }
    if (!r.messages.length && r.status >= 400 && msg.id !== undefined)
      await this.reply({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: `kboxd: ${r.detail}` } });
  }

  /** End the daemon's session (the client went away). */
  async close(): Promise<void> {
    if (!this.session) return;
    const headers: Record<string, string> = { "mcp-session-id": this.session };
    await this.client
      .exchange(api.mcpDelete, { params: { kbid: this.kbid }, headers })
      .then((res) => readAll(res.body))
      .catch(() => undefined);
  }
}

export async function runMcp(ctx: Context, o: McpOptions): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const stdin = ctx.io.stdin as unknown as Readable;
  const transport = new StdioServerTransport(stdin, ctx.io.stdout as unknown as Writable);
  const relay = new Relay(client, kbid, (m) => transport.send(m));
  const inflight = new Set<Promise<void>>();
  transport.onmessage = (m) => {
    const p = relay.forward(m as Message).catch((e) => ctx.status(`mcp: ${(e as Error).message}`));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  transport.onerror = (e) => ctx.status(`mcp: ${e.message}`);
  const ended = new Promise<void>((resolve) => {
    stdin.once("end", resolve);
    stdin.once("close", resolve);
  });
  await transport.start();
  ctx.status(`kbox mcp: serving knowledge box ${kbid} on stdio`);
  await ended;
  await Promise.all(inflight);
  await relay.close();
  await transport.close();
}

export function mcpCommand(ctx: Context): Command {
  return new Command("mcp")
    .description("Serve a knowledge box to MCP clients (Claude Desktop, Claude Code, Cursor) over stdio")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .addHelpText(
      "after",
      '\nThe MCP client starts it. Examples:\n  Claude Desktop / Cursor config: {"mcpServers": {"notes": {"command": "kbox", "args": ["mcp", "--kb", "notes"]}}}\n  claude mcp add notes -- kbox mcp --kb notes     # Claude Code\nSee docs/mcp.md.',
    )
    .action(async (_o, cmd: Command) => runMcp(ctx, ctx.opts<McpOptions>(cmd)));
}
