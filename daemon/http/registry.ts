import type { RouteDef } from "../../src/api/route.js";

interface Mounted {
  def: RouteDef;
  method: string;
  re: RegExp;
}

/** Every route mounted on an app: 405s, public routes, and the portless tests' route matrix read it. */
const mounted = new WeakMap<object, Mounted[]>();

/** Record a route mounted on an app (a GET answers HEAD too). */
export function remember(app: object, def: RouteDef): void {
  const list = mounted.get(app) ?? [];
  const re = new RegExp(`^${def.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`);
  list.push({ def, method: def.method, re });
  if (def.method === "GET") list.push({ def, method: "HEAD", re });
  mounted.set(app, list);
}

/** The routes mounted on an app, in mounting order (HEAD twins of GET routes left out). */
export function mountedRoutes(app: object): RouteDef[] {
  return (mounted.get(app) ?? []).filter((m) => m.method === m.def.method).map((m) => m.def);
}

/** Does this request go to a public route (no authentication)? */
export function isPublic(app: object, method: string, path: string): boolean {
  return (mounted.get(app) ?? []).some((m) => m.def.scope === "public" && m.method === method && m.re.test(path));
}

/** The app's answer for a request no route took: 405 with `Allow` when the path exists, else 404. */
export function unrouted(app: object, method: string, path: string): Response {
  const allow = [...new Set((mounted.get(app) ?? []).filter((m) => m.re.test(path)).map((m) => m.method))];
  if (allow.length && !allow.includes(method)) {
    return Response.json({ detail: "Method Not Allowed" }, { status: 405, headers: { allow: allow.join(", ") } });
  }
  return Response.json({ detail: "Not Found" }, { status: 404 });
}
