import type { Hono } from "hono";
import * as api from "../../../src/api/mcp.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

const H = api.MCP_HEADERS;

/** The knowledge box's MCP server (streamable HTTP): the MCP service answers each request whole. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, { post: api.mcpPost, get: api.mcpGet, delete: api.mcpDelete }, async ({ params, headers, principal, req }) =>
    s.mcp.handle(params.kbid, req, {
      principal,
      client: headers[H.client] ?? headers[H.clientAlias],
      user: headers[H.user] ?? headers[H.userAlias],
    }),
  );
}
