import { ACCOUNT_PARAMS, type RouteDef } from "../../src/api/route.js";
import type { Principal } from "../auth/service.js";
import { forbidden } from "../errors.js";

/** How a knowledge-box reference that is not an id becomes one (KbRef `as`); each throws 404 for an unknown value. */
export type KbResolvers = Record<"slug" | "backup", (value: string) => string>;

/** May this caller touch that knowledge box? Ids are UUIDs, equal in any case. */
export function sees(p: Principal, kbid: string): boolean {
  return p.kbid === undefined || kbid.toLowerCase() === p.kbid.toLowerCase();
}

/**
 * What the path alone decides, before anything is parsed: the least role, the socket owner, the
 * account, account-wide keys, and a knowledge box the path names by id. Throws 403.
 */
export function authorize(def: RouteDef, p: Principal, params: Record<string, string>): void {
  if (def.scope === "public") return;
  if (def.role && !p.roles.has(def.role)) throw forbidden();
  if (def.scope === "owner") {
    if (p.via !== "socket") throw forbidden();
    return;
  }
  const account = ACCOUNT_PARAMS.map((name) => params[name]).find((v) => v !== undefined);
  if (account !== undefined && p.account !== undefined && account !== p.account) throw forbidden();
  if (def.scope === "account" && p.kbid !== undefined) throw forbidden();
  const kb = def.kb;
  if (kb && "param" in kb && kb.as === "id" && !sees(p, params[kb.param] ?? "")) throw forbidden();
}

/**
 * A knowledge box named otherwise (by slug, by backup id, in the body), checked once the body is
 * parsed; resolved only for a caller scoped to one knowledge box. Throws 404 (unknown) or 403.
 */
export function authorizeKb(
  def: RouteDef,
  p: Principal,
  params: Record<string, string>,
  body: unknown,
  resolvers: KbResolvers,
): void {
  const kb = def.kb;
  if (!kb || p.kbid === undefined) return;
  let kbid: unknown;
  if ("body" in kb) kbid = (body as Record<string, unknown> | undefined)?.[kb.body];
  else if (kb.as !== "id") kbid = resolvers[kb.as](params[kb.param] ?? "");
  else return;
  if (typeof kbid !== "string" || !sees(p, kbid)) throw forbidden();
}
