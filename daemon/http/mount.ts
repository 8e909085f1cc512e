import type { Context, Hono } from "hono";
import type { z } from "zod";
import { issue, toValidationIssues } from "../../src/api/errors.js";
import type { RouteDef } from "../../src/api/route.js";
import type { Principal } from "../auth/service.js";
import { forbidden, invalid, KboxError } from "../errors.js";
import { type HttpEnv, principalOf } from "./auth.js";

/** What a handler receives: parsed parameters, query and body, and who is calling. */
export interface HandlerInput<T extends RouteDef> {
  params: z.output<T["params"]>;
  query: z.output<T["query"]>;
  body: z.output<T["body"]>;
  principal: Principal;
  req: Request;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export type Handler<T extends RouteDef> = (input: HandlerInput<T>) => Promise<z.input<T["response"]> | Response | undefined>;

/** Bodies above this are refused with 413 before parsing; uploads stream instead. */
export const JSON_BODY_LIMIT = 64 * 1024 * 1024;

async function readJson(req: Request): Promise<unknown> {
  const len = Number(req.headers.get("content-length") ?? "0");
  if (len > JSON_BODY_LIMIT) throw new KboxError(413, `Request body too large (limit ${JSON_BODY_LIMIT} bytes)`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > JSON_BODY_LIMIT) throw new KboxError(413, `Request body too large (limit ${JSON_BODY_LIMIT} bytes)`);
      chunks.push(chunk);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const pos = Number(/position (\d+)/.exec(msg)?.[1] ?? 0);
    throw invalid([issue("json_invalid", ["body", pos], "JSON decode error", {}, { error: msg })]);
  }
  if (depthOver(value, MAX_JSON_DEPTH)) {
    throw invalid([
      issue("json_invalid", ["body"], `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, {}, { max_depth: MAX_JSON_DEPTH }),
    ]);
  }
  return value;
}

/** No wire payload nests this deep; deeper documents would only overflow the stack further on. */
const MAX_JSON_DEPTH = 64;

function depthOver(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** Query parameters, repeated keys as arrays. */
function readQuery(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0] : v;
  return out;
}

function parse<S extends z.ZodType>(schema: S, input: unknown, where: "path" | "query" | "body"): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw invalid(toValidationIssues(r.error, where, input));
  return r.data as z.output<S>;
}

/**
 * @hono/node-server swaps the global Response for a lighter class once it serves, and
 * `Response.json()` still builds a native one; either kind is a finished response.
 */
const NativeResponse = globalThis.Response;
function isResponse(v: unknown): v is Response {
  return v instanceof Response || v instanceof NativeResponse;
}

/** Every mounted (method, path pattern) per app, so that an unknown method on a known path is a 405. */
const mounted = new WeakMap<object, { method: string; re: RegExp }[]>();

function remember(app: object, def: RouteDef): void {
  const list = mounted.get(app) ?? [];
  const re = new RegExp(`^${def.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`);
  list.push({ method: def.method, re });
  if (def.method === "GET") list.push({ method: "HEAD", re });
  mounted.set(app, list);
}

/** The app's answer for a request no route took: 405 with `Allow` when the path exists, else 404. */
export function unrouted(app: object, method: string, path: string): Response {
  const allow = [...new Set((mounted.get(app) ?? []).filter((m) => m.re.test(path)).map((m) => m.method))];
  if (allow.length && !allow.includes(method)) {
    return Response.json({ detail: "Method Not Allowed" }, { status: 405, headers: { allow: allow.join(", ") } });
  }
  return Response.json({ detail: "Not Found" }, { status: 404 });
}

/** Mount a handler on its route definition: the route's schemas parse, its role authorizes. */
export function mount<T extends RouteDef>(app: Hono<HttpEnv>, def: T, handler: Handler<T>): void {
  remember(app, def);
  app.on(def.method, def.path, async (c) => {
    const principal = principalOf(c);
    if (!principal.roles.has(def.role)) throw forbidden();
    const rawParams = c.req.param() as Record<string, string>;
    const scopedKb = rawParams.kbid ?? rawParams.kb_id;
    if (principal.kbid && scopedKb && scopedKb !== principal.kbid) throw forbidden();
    const params = parse<T["params"]>(def.params, rawParams, "path");
    const query = parse<T["query"]>(def.query, readQuery(c), "query");
    const body = (def.bodyKind === "json" ? parse(def.body, await readJson(c.req.raw), "body") : undefined) as z.output<
      T["body"]
    >;
    const result = await handler({ params, query, body, principal, req: c.req.raw, signal: c.req.raw.signal });
    if (isResponse(result)) return result;
    if (def.status === 204 || result === undefined) return c.body(null, def.status === 200 ? 204 : (def.status as 204));
    return c.json(result as object, def.status as 200);
  });
}

/** Turn thrown errors into the wire's error bodies; unknown errors are 500 and logged. */
export function errorResponse(err: unknown, log: (msg: string) => void): Response {
  if (err instanceof KboxError) {
    return Response.json({ detail: err.detail }, { status: err.status, headers: err.headers });
  }
  log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
  return Response.json({ detail: "Internal server error" }, { status: 500 });
}
