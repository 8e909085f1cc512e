// Generated from src/api/mcp.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/mcp.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/mcp.js";
import type { Routed } from "../client.js";

export type * from "../../api/mcp.js";

export const MCP_HEADERS: typeof api.MCP_HEADERS = {
  client: "x-platform-client",
  clientAlias: "x-ndb-client",
  user: "x-platform-user",
  userAlias: "x-nucliadb-user",
  forwardedFor: "x-forwarded-for",
  session: "mcp-session-id",
};
export const mcpDelete: Routed<typeof api.mcpDelete> = { method: "DELETE", path: "/api/v1/kb/:kbid/mcp", stream: false };
export const mcpGet: Routed<typeof api.mcpGet> = { method: "GET", path: "/api/v1/kb/:kbid/mcp", stream: false };
export const mcpPost: Routed<typeof api.mcpPost> = { method: "POST", path: "/api/v1/kb/:kbid/mcp", stream: false };
