import type { Context } from "hono";
import { KEY_HEADERS, ROLES_HEADER } from "../../src/api/accounts.js";
import { Role } from "../../src/api/route.js";
import type { Principal } from "../auth/principal.js";
import { KboxError } from "../errors.js";
import type { Credentials } from "../zone/credentials.js";
import type { KbResolvers } from "./scope.js";

/** Per-connection facts the server adapter passes to the app. */
export interface ConnInfo {
  transport: "unix" | "tcp";
  remoteAddress?: string;
}

/** What mount needs of the app besides the request: KB resolvers for scope checks, the JSON body limit. */
export interface MountContext {
  resolvers: KbResolvers;
  bodyLimit: number;
  /** Does this knowledge box (still) exist? A request that failed while its box was deleted answers 404. */
  kbExists?: (kbid: string) => boolean;
}

/**
 * `c.env.conn` says how the request arrived (the server adapter sets it; a portless test passes it to
 * `app.request(path, init, { conn })`); `principal` is who is calling, set before any route runs.
 */
export type HttpEnv = { Bindings: { conn: ConnInfo }; Variables: { principal: Principal; mount: MountContext } };

export interface AuthOptions {
  credentials: Credentials;
  /** Accept `X-NUCLIADB-ROLES` from loopback TCP clients instead of a key. */
  trustRolesHeader: boolean;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Decide who is calling. The Unix socket (0600, the owner's) is trusted fully; TCP needs a
 * service-account key, or, in the opt-in standalone mode, the roles header from loopback.
 */
export function authenticate(c: Context<HttpEnv>, opts: AuthOptions): Principal {
  const conn = c.env?.conn ?? { transport: "unix" };
  if (conn.transport === "unix") return opts.credentials.owner();
  for (const h of KEY_HEADERS) {
    const v = c.req.header(h);
    if (v === undefined) continue;
    const token = v.replace(/^Bearer\s+/i, "").trim();
    const p = opts.credentials.resolve(token);
    if (!p) throw new KboxError(401, "Invalid or expired API key");
    return p;
  }
  // User tokens (`Authorization: Bearer`, as plain OpenAI clients send keys too) and NUA keys.
  for (const h of ["x-nuclia-nuakey", "x-stf-nuakey", "authorization"]) {
    const v = c.req.header(h);
    if (v === undefined || !/^Bearer\s+/i.test(v)) continue;
    const p = opts.credentials.resolve(v.replace(/^Bearer\s+/i, "").trim());
    if (!p) throw new KboxError(401, "Invalid or expired token");
    return p;
  }
  // Ephemeral tokens ride in the query of URLs a browser opens itself (WebSockets, downloads).
  const eph = c.req.query("eph-token");
  if (eph !== undefined) {
    const p = opts.credentials.resolve(eph);
    if (!p || p.via !== "token") throw new KboxError(401, "Invalid or expired ephemeral token");
    return p;
  }
  const roles = c.req.header(ROLES_HEADER);
  if (opts.trustRolesHeader && roles !== undefined && LOOPBACK.test(conn.remoteAddress ?? "")) {
    const set = new Set(
      roles
        .split(";")
        .map((r) => r.trim().toUpperCase())
        .filter((r) => Role.safeParse(r).success),
    ) as Set<Role>;
    // Upstream lists knowledge boxes for MANAGER, and the SDK sends that role alone for `GET /kbs`.
    if (set.has("MANAGER")) set.add("READER");
    return { roles: set, via: "roles-header" };
  }
  throw new KboxError(401, "Missing API key: send X-PLATFORM-SERVICEACCOUNT: Bearer <key>");
}
