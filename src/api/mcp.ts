import { z } from "zod";
import { route } from "./route.js";

/** Clients the tool-protocol headers name (`x-platform-client`, alias `x-ndb-client`). */
export const PlatformClient = z.enum(["api", "widget", "web", "dashboard", "desktop", "chrome_extension"]);

/** Request headers of the knowledge box's tool-protocol (MCP) handlers; the real names are aliases. */
export const MCP_HEADERS = {
  client: "x-platform-client",
  clientAlias: "x-ndb-client",
  user: "x-platform-user",
  userAlias: "x-nucliadb-user",
  forwardedFor: "x-forwarded-for",
  session: "mcp-session-id",
} as const;

const McpHeaders = z.object({
  [MCP_HEADERS.client]: PlatformClient.optional(),
  [MCP_HEADERS.clientAlias]: PlatformClient.optional(),
  [MCP_HEADERS.user]: z.string().optional(),
  [MCP_HEADERS.userAlias]: z.string().optional(),
  [MCP_HEADERS.forwardedFor]: z.string().optional(),
});

const Params = z.object({ kbid: z.string() });
const PATH = "/api/v1/kb/:kbid/mcp";

/**
 * The knowledge box as an MCP server (streamable HTTP): POST carries JSON-RPC messages (an
 * `initialize` opens a session, answered with `mcp-session-id`), GET opens the session's stream of
 * server messages, DELETE ends the session. Readers get the read tools; writers also the add tools.
 */
export const mcpPost = route({
  method: "POST",
  path: PATH,
  params: Params,
  headers: McpHeaders,
  bodyKind: "raw",
  role: "READER",
  summary: "MCP (streamable HTTP): send JSON-RPC messages to the knowledge box's MCP server",
});
export const mcpGet = route({
  method: "GET",
  path: PATH,
  params: Params,
  headers: McpHeaders,
  role: "READER",
  summary: "MCP (streamable HTTP): the session's stream of server messages (SSE)",
});
export const mcpDelete = route({
  method: "DELETE",
  path: PATH,
  params: Params,
  headers: McpHeaders,
  role: "READER",
  summary: "MCP (streamable HTTP): end a session",
});
