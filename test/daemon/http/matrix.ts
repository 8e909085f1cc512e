/**
 * The route matrix's fixture: the app over services on a temp data dir (no socket, no port), every
 * route it mounts, two knowledge boxes with a backup each, and keys. Every check walks
 * `mountedRoutes(app)`, so a route mounted tomorrow is in the matrix without a new row.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { mountedRoutes } from "../../../daemon/http/registry.js";
import type { KbRef, RouteDef } from "../../../src/api/route.js";
import { type PortlessApp, startPortlessApp } from "../../helpers/app.js";
import type { KbNames } from "./samples.js";

/** Small enough that a 2 KiB body is over it. */
export const BODY_LIMIT = 1024;

export interface Matrix {
  t: PortlessApp;
  routes: RouteDef[];
  /** Two real knowledge boxes, each with a backup. */
  a: KbNames;
  b: KbNames;
  /** A knowledge box no one created: requests naming it pass every check and end in 404. */
  ghost: KbNames;
  keys: { wide: string; ofA: string; ofB: string; ofGhost: string };
}

/** Start the app (trusting the roles header from loopback, with a small JSON limit) and make the fixtures. */
export async function startMatrix(): Promise<Matrix> {
  const t = await startPortlessApp({ trustRolesHeader: true, jsonBodyLimit: BODY_LIMIT });
  const s = t.services;
  const box = async (slug: string): Promise<KbNames> => {
    const kb = await s.kbs.create({ slug });
    const backup = await s.backups.create(kb.uuid);
    await s.backups.wait(backup.id);
    return { uuid: kb.uuid, slug, backup: backup.id };
  };
  const a = await box("kb-a");
  const b = await box("kb-b");
  const ghost = { uuid: "0badc0de-0000-4000-8000-000000000000", slug: "ghost", backup: "0badc0de-0000-4000-8000-00000000000b" };
  const keys = {
    wide: await t.key("SOWNER"),
    ofA: await t.key("SOWNER", a.uuid),
    ofB: await t.key("SOWNER", b.uuid),
    ofGhost: await t.key("SOWNER", ghost.uuid),
  };
  return { t, routes: mountedRoutes(t.app), a, b, ghost, keys };
}

export const label = (def: RouteDef) => `${def.method} ${def.path}`;

/** Run a check on each route; the answer lists every route whose outcome was wrong (empty when all hold). */
export async function eachRoute(routes: RouteDef[], check: (def: RouteDef) => Promise<string | undefined>): Promise<string[]> {
  const wrong: string[] = [];
  for (const def of routes) {
    const problem = await check(def).catch((e: Error) => `threw ${e.message}`);
    if (problem) wrong.push(`${label(def)}: ${problem}`);
  }
  return wrong;
}

/** "" when the status is one of `want`, else what came instead (with the body's start). */
export async function expectStatus(res: Response, ...want: number[]): Promise<string | undefined> {
  if (want.includes(res.status)) return undefined;
  return `${res.status} (want ${want.join(" or ")}) ${(await res.text()).slice(0, 160)}`;
}

/** A route's KB reference kind: "id" (a path parameter), "slug", "backup", "body", or undefined (no KB). */
export function refKind(def: RouteDef): "id" | "slug" | "backup" | "body" | undefined {
  const ref = def.kb as KbRef | undefined;
  return !ref ? undefined : "body" in ref ? "body" : ref.as;
}

/** Every route value src/api exports (records of forms included), for the "all mounted" check. */
export async function apiRoutes(): Promise<RouteDef[]> {
  const dir = join(import.meta.dirname, "../../../src/api");
  const out: RouteDef[] = [];
  const walk = (v: unknown) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return;
    const r = v as Record<string, unknown>;
    if (typeof r.method === "string" && typeof r.path === "string" && "scope" in r) out.push(v as RouteDef);
    else if (Object.getPrototypeOf(v) === Object.prototype) for (const sub of Object.values(r)) walk(sub);
  };
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts") && n !== "index.ts")) {
    for (const v of Object.values(await import(join(dir, f)))) walk(v);
  }
  return out;
}
