import type { MiddlewareHandler } from "hono";
import type { KbDoc } from "../store/index.js";
import type { HttpEnv } from "./auth.js";

const KB_PATH = /^\/api\/v1\/kb\/([0-9a-fA-F-]{36})(\/|$)/;
const ALLOW_HEADERS =
  "authorization, content-type, x-nuclia-serviceaccount, x-stf-serviceaccount, x-nuclia-nuakey, x-ndb-client, x-synchronous, x-nucliadb-user";

/**
 * Browsers calling a knowledge box's API: an origin the box lists in `allowed_origins` (or `*`) gets
 * CORS headers, preflights included (answered before authentication, as browsers send no
 * credentials with them); any other origin is refused with 403 naming it. Boxes that list no origin
 * send no CORS headers, so browsers keep their same-origin rule.
 */
export function cors(kbOf: (kbid: string) => KbDoc | undefined): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    const m = origin ? KB_PATH.exec(c.req.path) : null;
    const kb = m ? kbOf(m[1].toLowerCase()) : undefined;
    if (!origin || !kb?.allowed_origins.length) return next();
    const allowed = kb.allowed_origins.includes("*") || kb.allowed_origins.includes(origin);
    if (!allowed)
      return c.json({ detail: `Origin ${origin} is not allowed for this knowledge box (allowed_origins)` }, 403, {
        vary: "origin",
      });
    const headers = { "access-control-allow-origin": origin, vary: "origin" };
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method"))
      return c.body(null, 204, {
        ...headers,
        "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, HEAD",
        "access-control-allow-headers": c.req.header("access-control-request-headers") ?? ALLOW_HEADERS,
        "access-control-max-age": "600",
      });
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
