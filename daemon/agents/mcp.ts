/**
 * An agent session as an MCP server (streamable HTTP, JSON answers): the tool-protocol handlers of
 * `/agent/{agent}/session/{session}/mcp`. Its tool `ask_agent` runs an interaction in that session
 * (the history grows as over POST); `session_history` reads the conversation.
 */
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Principal } from "../auth/principal.js";
import { KboxError } from "../errors.js";
import type { InteractionService } from "./interact.js";
import type { SessionService } from "./sessions.js";

interface Open {
  key: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

const IDLE_MS = 30 * 60_000;
const MAX_OPEN = 64;
const callerKey = (p: Principal) => `${p.via}:${p.kbid ?? "*"}:${[...p.roles].sort().join(",")}`;
const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

export class AgentMcp {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly interactions: InteractionService,
    private readonly sessions: SessionService,
    private readonly version: string,
  ) {}

  async handle(agentId: string, session: string, req: Request, principal: Principal): Promise<Response> {
    // 404 for an unknown agent or session before any protocol work.
    if (session !== "ephemeral") await this.sessions.get(agentId, session);
    const key = `${agentId.toLowerCase()}/${session}/${callerKey(principal)}`;
    const sid = req.headers.get("mcp-session-id");
    if (sid) {
      const o = this.open.get(sid);
      if (!o || o.key !== key) return rpcError(404, -32001, "Session not found");
      o.lastUsed = Date.now();
      return o.transport.handleRequest(req);
    }
    if (req.method !== "POST") return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    this.sweep();
    const server = this.server(agentId, session, principal);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.open.set(id, { key, server, transport, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        this.open.delete(id);
      },
    });
    await server.connect(transport);
    const res = await transport.handleRequest(req);
    if (!transport.sessionId) await server.close();
    return res;
  }

  private server(agentId: string, session: string, principal: Principal): McpServer {
    const server = new McpServer(
      { name: "kbox-agent", title: "kbox retrieval agent", version: this.version },
      {
        instructions:
          "A retrieval agent over the user's knowledge boxes. Use ask_agent for questions: it searches every source the " +
          "agent has, keeps the conversation, and answers with the sources it used.",
      },
    );
    const guarded = async (fn: () => Promise<CallToolResult>): Promise<CallToolResult> => {
      try {
        return await fn();
      } catch (e) {
        if (e instanceof KboxError) return { isError: true, content: [{ type: "text", text: e.message }] };
        throw e;
      }
    };
    server.registerTool(
      "ask_agent",
      {
        title: "Ask the agent",
        description:
          "Ask the retrieval agent a question. It rephrases follow-ups with the session's history, retrieves from each of " +
          "its knowledge boxes, and answers from what it found; the answer lists the sources (driver, document, paragraph).",
        inputSchema: { question: z.string().min(1).describe("The question, as the user would ask it") },
        annotations: { readOnlyHint: false, openWorldHint: false },
      },
      async ({ question }, extra) =>
        guarded(async () => {
          const req = { question, headers: {}, arguments: {}, operation: 0 as const, streaming: false };
          const p = await this.interactions.prepare(agentId, session, "default", req, { principal, signal: extra.signal });
          const r = await this.interactions.whole(p);
          if (r.exception) return { isError: true, content: [{ type: "text", text: r.exception.detail }] };
          const sources = (r.contexts ?? []).flatMap((c) =>
            ((c.chunks as { id: string; title?: string | null; text: string }[]) ?? []).map(
              (x) => `- ${String(c.agent)}: ${x.title ?? x.id} (${x.id}): ${x.text.slice(0, 200)}`,
            ),
          );
          const body = `${r.answer ?? ""}${sources.length ? `\n\nSources:\n${sources.join("\n")}` : ""}`;
          return { content: [{ type: "text", text: body }], structuredContent: { answer: r.answer ?? "", steps: r.steps ?? [] } };
        }),
    );
    server.registerTool(
      "session_history",
      {
        title: "Read the conversation",
        description: "The questions and answers of this agent session so far, oldest first.",
        inputSchema: {},
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () =>
        guarded(async () => {
          if (session === "ephemeral") return { content: [{ type: "text", text: "(an ephemeral session keeps no history)" }] };
          const s = await this.sessions.get(agentId, session);
          const msgs = s.data.conversations.history.value.messages as { who: string; content: { text: string } }[];
          return { content: [{ type: "text", text: msgs.map((m) => `${m.who}: ${m.content.text}`).join("\n") || "(empty)" }] };
        }),
    );
    return server;
  }

  private sweep(): void {
    const before = Date.now() - IDLE_MS;
    const all = [...this.open].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [i, [id, o]] of all.entries())
      if (o.lastUsed < before || all.length - i >= MAX_OPEN) {
        this.open.delete(id);
        void o.server.close().catch(() => undefined);
      }
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((o) => o.server.close().catch(() => undefined)));
  }
}
