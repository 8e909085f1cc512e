import type { Context, Hono } from "hono";
import type { z } from "zod";
import type { RouteDef } from "../../src/api/route.js";
import type { Principal } from "../auth/principal.js";
import { exhausted, KboxError } from "../errors.js";
import type { HttpEnv } from "./auth.js";
import { parse, readHeaders, readJson, readQuery } from "./parse.js";
import { remember } from "./registry.js";
import { authorize, authorizeKb, checkIp, sees } from "./scope.js";
import { isAsyncIterable, streamResponse } from "./stream.js";

/** What a handler receives: parsed parameters, query, headers and body, and who is calling. */
export interface HandlerInput<T extends RouteDef> {
  params: z.output<T["params"]>;
  query: z.output<T["query"]>;
  headers: z.output<T["headers"]>;
  body: z.output<T["body"]>;
  principal: Principal;
  /** May the caller see this knowledge box? What an `authenticated` route lists is narrowed by it. */
  sees: (kbid: string) => boolean;
  req: Request;
  /** Aborted when the client goes away (the connection closes, or the stream's reader cancels). */
  signal: AbortSignal;
  /** A header for the answer mount builds (JSON or stream). */
  setHeader: (name: string, value: string) => void;
}

/**
 * A route's work: the response value (sent as JSON with the route's status), an AsyncIterable of
 * items (streamed as the route's stream kind), a finished Response (downloads, TUS), or undefined (204).
 */
export type Handler<T extends RouteDef> = (
  input: HandlerInput<T>,
) => Promise<z.input<T["response"]> | AsyncIterable<unknown> | Response | undefined>;

/** A route, or a record of its forms (by id and by slug...) that one handler serves. */
type Defs = RouteDef | { readonly [form: string]: RouteDef };
type Leaf<D> = D extends RouteDef ? D : D[keyof D];

/**
 * @hono/node-server swaps the global Response for a lighter class once it serves, and
 * `Response.json()` still builds a native one; either kind is a finished response.
 */
const NativeResponse = globalThis.Response;
function isResponse(v: unknown): v is Response {
  return v instanceof Response || v instanceof NativeResponse;
}

/** An AbortController that the request's own signal (the connection closing) also aborts. */
function requestAbort(req: Request): AbortController {
  const abort = new AbortController();
  if (req.signal.aborted) abort.abort();
  else req.signal.addEventListener("abort", () => abort.abort(), { once: true });
  return abort;
}

async function serve<T extends RouteDef>(c: Context<HttpEnv>, def: T, handler: Handler<T>): Promise<Response> {
  const principal = c.get("principal");
  const { resolvers, bodyLimit, kbExists } = c.get("mount");
  const rawParams = c.req.param() as Record<string, string>;
  authorize(def, principal, rawParams, c.req.path, resolvers);
  const kbParam = def.kb && "param" in def.kb && def.kb.as === "id" ? rawParams[def.kb.param] : undefined;
  // The knowledge-box API only: an owner fixing the list over the account routes is not locked out.
  if (kbParam !== undefined && def.path.startsWith("/api/v1/kb/")) {
    const conn = c.env?.conn ?? { transport: "unix" };
    checkIp(resolvers.kb(kbParam), conn.transport, conn.remoteAddress);
  }
  const params = parse<T["params"]>(def.params, rawParams, "path");
  const rawQuery = readQuery(c);
  const query = parse<T["query"]>(def.query, rawQuery, "query");
  const headers = parse<T["headers"]>(def.headers, readHeaders(c.req.raw), "header");
  let body: z.output<T["body"]> = undefined as z.output<T["body"]>;
  if (def.bodyKind === "json") body = parse<T["body"]>(def.body, await readJson(c.req.raw, bodyLimit), "body");
  else if (def.bodyKind === "query" && def.fromQuery) body = parse<T["body"]>(def.body, def.fromQuery(rawQuery), "query");
  authorizeKb(def, principal, rawParams, body, resolvers);

  const abort = requestAbort(c.req.raw);
  const out: Record<string, string> = {};
  const result = await run(
    () =>
      handler({
        params,
        query,
        headers,
        body,
        principal,
        sees: (kbid) => sees(principal, kbid, resolvers),
        req: c.req.raw,
        signal: abort.signal,
        setHeader: (name, value) => {
          out[name] = value;
        },
      }),
    rawParams,
    kbExists,
  );
  if (isResponse(result)) return result;
  if (isAsyncIterable(result)) {
    if (!def.stream) throw new Error(`${def.method} ${def.path} returned a stream but declares no stream kind`);
    return streamResponse(def, result, abort, out);
  }
  if (def.status === 204 || result === undefined) return c.body(null, (def.status === 200 ? 204 : def.status) as 204, out);
  return c.json(result as object, def.status as 200, out);
}

const KB_PARAMS = ["kbid", "kb_id", "kb", "kb_uuid"];

/** A handler's failure while its knowledge box was being deleted is that box's 404, not a 500. */
async function run<R>(fn: () => Promise<R>, params: Record<string, string>, exists?: (kbid: string) => boolean): Promise<R> {
  try {
    return await fn();
  } catch (e) {
    const kbid = KB_PARAMS.map((p) => params[p]).find((v) => v !== undefined && /^[0-9a-f-]{36}$/i.test(v));
    if (!(e instanceof KboxError && e.status < 500) && kbid !== undefined && exists && !exists(kbid))
      throw new KboxError(404, "Knowledge Box not found");
    throw e;
  }
}

/**
 * Mount a handler on its route definition(s). Before the handler runs, mount checks the route's
 * least role and scope, parses path, query, headers and body with its schemas (422 located where the
 * problem is, 413 over the body limit); after, it answers JSON or encodes the stream.
 */
export function mount<D extends Defs>(app: Hono<HttpEnv>, defs: D, handler: Handler<Leaf<D>>): void {
  const all = (isRouteDef(defs) ? [defs] : Object.values(defs)) as Leaf<D>[];
  for (const def of all) {
    remember(app, def);
    app.on(def.method, def.path, (c) => serve(c, def, handler));
  }
}

function isRouteDef(v: Defs): v is RouteDef {
  return typeof v.method === "string" && typeof v.path === "string";
}

/** Turn thrown errors into the wire's error bodies; unknown errors are 500 and logged. */
export function errorResponse(err: unknown, log: { error(msg: string): void }): Response {
  if (err instanceof KboxError) {
    return Response.json({ detail: err.detail }, { status: err.status, headers: err.headers });
  }
  const out = exhausted(err);
  if (out) {
    log.error(`${out.status}: ${(err as Error)?.message ?? String(err)}`);
    return Response.json({ detail: out.detail }, { status: out.status, headers: out.headers });
  }
  log.error(`internal error: ${(err as Error)?.stack ?? String(err)}`);
  return Response.json({ detail: "Internal server error" }, { status: 500 });
}
