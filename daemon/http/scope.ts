import { ACCOUNT_PARAMS, type RouteDef } from "../../src/api/route.js";
import { type Principal, rolesOn } from "../auth/principal.js";
import { forbidden, KboxError } from "../errors.js";
import type { KbDoc } from "../store/index.js";

/**
 * How references become records for the scope checks: a knowledge box named otherwise than by id
 * (KbRef `as`; each throws 404 for an unknown value), an account by id or slug (404), and the
 * record of a knowledge box by id (undefined when unknown: the handler answers its own 404).
 */
export interface KbResolvers {
  slug: (value: string) => string;
  backup: (value: string) => string;
  account: (ref: string) => string;
  kb: (kbid: string) => (KbDoc & { account: string }) | undefined;
}

/** What a NUA key without allow_kb_management may call: the understanding API, and who it is (authorizer info). */
const NUA_PATHS = /^\/api\/(v[12]\/(predict|processing)(\/|$)|authorizer\/info$)/;

/** May this caller touch that knowledge box? Ids are UUIDs, equal in any case. */
export function sees(p: Principal, kbid: string, r?: Pick<KbResolvers, "kb">): boolean {
  const id = kbid.toLowerCase();
  if (p.kbid !== undefined && id !== p.kbid.toLowerCase()) return false;
  if (p.account !== undefined && r) {
    const kb = r.kb(id);
    if (kb && kb.account !== p.account) return false;
  }
  // A user who owns no account sees the boxes they are a member of.
  if (p.kbRoles && p.roles.size === 0 && !p.kbRoles[id]) return false;
  return true;
}

/** The least role, checked on the roles the caller holds on `kbid` (or anywhere, for a list). */
function checkRole(def: RouteDef, p: Principal, kbid: string | undefined): void {
  if (!def.role) return;
  if (kbid !== undefined) {
    if (!rolesOn(p, kbid).has(def.role)) throw forbidden();
    return;
  }
  if (p.roles.has(def.role)) return;
  // Lists (`authenticated`) answer a member of some box with what they see there.
  const anyMember = def.scope === "authenticated" && Object.keys(p.kbRoles ?? {}).some((k) => rolesOn(p, k).has(def.role!));
  if (!anyMember) throw forbidden();
}

/**
 * What the path alone decides, before anything is parsed: the socket owner, the account, the
 * restrictions of keys and tokens, a knowledge box the path names by id, and the least role. Throws
 * 403 (or 404 for an unknown account).
 */
/** A path under one session of an agent: `/api/v1/agent/{agent}[/workflow/{wf}]/session/{session}[/…]`. */
function inSession(path: string, session: string): boolean {
  const m = /^\/api\/v1\/agent\/[^/]+(?:\/workflow\/[^/]+)?\/session\/([^/]+)(?:\/|$)/.exec(path);
  if (!m) return false;
  try {
    return decodeURIComponent(m[1]) === session;
  } catch {
    return false; // a malformed escape names no session
  }
}

export function authorize(def: RouteDef, p: Principal, params: Record<string, string>, path: string, r: KbResolvers): void {
  if (def.scope === "public") return;
  if (p.nuaOnly && !NUA_PATHS.test(path))
    throw new KboxError(
      403,
      "This NUA key serves the understanding API only: create one with allow_kb_management to manage knowledge boxes",
    );
  if (p.path !== undefined && !path.startsWith(p.path)) throw new KboxError(403, "This token is limited to another path");
  if (p.agentSession !== undefined && !inSession(path, p.agentSession))
    throw new KboxError(403, `This token is limited to the agent session ${p.agentSession}`);
  if (def.scope === "owner") {
    if (p.via !== "socket") throw forbidden();
    checkRole(def, p, undefined);
    return;
  }
  const ref = ACCOUNT_PARAMS.map((name) => params[name]).find((v) => v !== undefined);
  if (ref !== undefined) {
    const account = r.account(ref);
    if (p.account !== undefined && account !== p.account) throw forbidden();
  }
  if (def.scope === "account" && p.kbid !== undefined) throw forbidden();
  const kb = def.kb;
  if (kb && "param" in kb && kb.as === "id") {
    const kbid = params[kb.param] ?? "";
    if (!sees(p, kbid, r)) throw forbidden();
    checkRole(def, p, kbid);
    return;
  }
  // A box named by slug, backup or body: a member's role is checked once it is known (authorizeKb).
  if (kb && p.kbRoles) return;
  checkRole(def, p, undefined);
}

/**
 * A knowledge box named otherwise (by slug, by backup id, in the body), checked once the body is
 * parsed; resolved only for a caller limited to some boxes. Throws 404 (unknown) or 403.
 */
export function authorizeKb(def: RouteDef, p: Principal, params: Record<string, string>, body: unknown, r: KbResolvers): void {
  const kb = def.kb;
  if (!kb || (p.kbid === undefined && p.account === undefined && !p.kbRoles)) return;
  let kbid: unknown;
  if ("body" in kb) kbid = (body as Record<string, unknown> | undefined)?.[kb.body];
  else if (kb.as !== "id") kbid = r[kb.as](params[kb.param] ?? "");
  else return;
  if (typeof kbid !== "string" || !sees(p, kbid, r)) throw forbidden();
  if (p.kbRoles) checkRole(def, p, kbid);
}

/**
 * A knowledge box that lists the IPs it accepts refuses TCP requests from any other (the socket's
 * owner is local and always passes).
 */
export function checkIp(kb: KbDoc | undefined, transport: string, ip: string | undefined): void {
  if (!kb?.allowed_ip_addresses.length || transport !== "tcp") return;
  const addr = (ip ?? "").replace(/^::ffff:/, "");
  if (!kb.allowed_ip_addresses.some((allowed) => ipMatches(allowed, addr)))
    throw new KboxError(
      403,
      `Requests from ${addr || "this address"} are not allowed for this knowledge box (allowed_ip_addresses)`,
    );
}

/** An address, or an IPv4 CIDR range, matching `ip`. */
function ipMatches(allowed: string, ip: string): boolean {
  const [base, bits] = allowed.trim().split("/");
  if (bits === undefined) return base === ip;
  const n = Number(bits);
  const toInt = (a: string) => a.split(".").reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(base) || !/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !(n >= 0 && n <= 32)) return false;
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  return (toInt(base) & mask) === (toInt(ip) & mask);
}
