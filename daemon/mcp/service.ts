import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "../auth/service.js";
import { buildServer } from "./server.js";
import { KbTools, type ToolServices } from "./tools.js";

export type { ToolServices } from "./tools.js";

/** MCP settings: how long an idle session lives, and how many may be open at once. */
export interface McpSettings {
  idleMs: number;
  maxSessions: number;
}

/** Who sent one MCP request: the caller, and the tool-protocol headers. */
export interface McpCaller {
  principal: Principal;
  client?: string;
  user?: string;
}

interface Session {
  kbid: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Keys of the caller that opened it: a later request must be the same kind of caller. */
  owner: string;
  lastUsed: number;
}

const callerKey = (p: Principal) => `${p.via}:${p.kbid ?? "*"}:${[...p.roles].sort().join(",")}`;

/** A JSON-RPC error answer outside any session (unknown or foreign session id). */
function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/**
 * Every knowledge box as an MCP server over streamable HTTP. An `initialize` POST opens a session
 * (its id in `mcp-session-id`), later requests name it; sessions end on DELETE, when idle, or at stop.
 */
export class McpService {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly services: ToolServices,
    private readonly settings: McpSettings,
    private readonly version: string,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, settings.idleMs)).unref();
  }

  /** Serve one MCP request for a knowledge box (POST, GET or DELETE), answering the transport's Response. */
  async handle(kbid: string, req: Request, caller: McpCaller): Promise<Response> {
    const kb = this.services.kbs.require(kbid, "Knowledge Box not found");
    const authInfo = { token: "", clientId: caller.client ?? "api", scopes: [...caller.principal.roles], extra: { ...caller } };
    const sid = req.headers.get("mcp-session-id");
    if (sid) {
      const s = this.sessions.get(sid);
      if (!s || s.kbid !== kb.uuid || s.owner !== callerKey(caller.principal)) return rpcError(404, -32001, "Session not found");
      s.lastUsed = Date.now();
      return s.transport.handleRequest(req, { authInfo });
    }
    if (req.method !== "POST") return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    if (this.sessions.size >= this.settings.maxSessions) this.evictOldest();
    const server = buildServer(new KbTools(this.services, kb.uuid), caller.principal, this.version);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { kbid: kb.uuid, server, transport, owner: callerKey(caller.principal), lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    await server.connect(transport);
    const res = await transport.handleRequest(req, { authInfo });
    // Not an initialize: the transport refused it, and no session holds the server.
    if (!transport.sessionId) await server.close();
    return res;
  }

  /** Open sessions (for the daemon's status and tests). */
  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const before = Date.now() - this.settings.idleMs;
    for (const [id, s] of this.sessions) if (s.lastUsed < before) this.drop(id, s);
  }

  private evictOldest(): void {
    const oldest = [...this.sessions].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
    if (oldest) this.drop(...oldest);
  }

  private drop(id: string, s: Session): void {
    this.sessions.delete(id);
    void s.server.close().catch(() => undefined);
  }

  /** End every session (the daemon stops). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions];
    this.sessions.clear();
    await Promise.all(all.map(([, s]) => s.server.close().catch(() => undefined)));
  }
}
