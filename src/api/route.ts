import { z } from "zod";

/** HTTP methods the wire uses. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/** Local roles of wire.md; each route names the least role it needs. */
export const Role = z.enum(["READER", "WRITER", "MANAGER", "OWNER"]);
export type Role = z.infer<typeof Role>;

/**
 * How a route's body travels: JSON (default), raw bytes (uploads), none, or as query parameters
 * (the GET form of a POST route: `fromQuery` turns the parameters into the body its schema parses).
 */
export type BodyKind = "json" | "raw" | "none" | "query";

/** How a streamed response is framed: one JSON item a line, or one server-sent `data:` event an item. */
export type StreamKind = "ndjson" | "sse";

/**
 * Who may call a route, beyond its least role; `mount` checks both before the handler runs.
 * - `kb`: one knowledge box, named by the path's KB parameter (KB_PARAMS) or by `kb`; a key scoped to
 *   another knowledge box gets 403. A path with a KB parameter is always `kb` (the default there).
 * - `account`: the whole account (create a knowledge box, restore, daemon-wide models); keys scoped to
 *   one knowledge box get 403.
 * - `authenticated`: any caller, KB-scoped keys included: the route touches no knowledge box (hello,
 *   predict) or lists only those the caller sees (`HandlerInput.sees`).
 * - `owner`: the Unix socket's owner only (stop the daemon), whatever a TCP key's role.
 * - `public`: no authentication at all (version-like endpoints); such a route needs no role.
 * In every scope but `owner` and `public`, the path's account parameter (ACCOUNT_PARAMS) must be the caller's account.
 */
export type Scope = "kb" | "account" | "authenticated" | "owner" | "public";

/** Path parameters that name a knowledge box (by id); the first one a path has is its scope. */
export const KB_PARAMS = ["kbid", "kb_id", "kb", "kb_uuid"] as const;
/** Path parameters that name an account. */
export const ACCOUNT_PARAMS = ["account_id", "account"] as const;

/**
 * What names a `kb` route's knowledge box: a path parameter holding its id (the default: the path's
 * KB parameter), its slug, or a backup id (the backup's knowledge box); or a body member holding its id.
 */
export type KbRef = { param: string; as: "id" | "slug" | "backup" } | { body: string };

/** One endpoint of the wire: the single definition both daemon and client use. */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  H extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** Path with `:name` parameters, e.g. `/api/v1/kb/:kbid`. */
  path: string;
  params: P;
  query: Q;
  /** Request headers the handler reads (lower-case names); problems are 422 located under `header`. */
  headers: H;
  body: B;
  bodyKind: BodyKind;
  /** `bodyKind: "query"`: the body, unvalidated, from the query parameters (repeated keys as arrays). */
  fromQuery?: (query: Record<string, string | string[]>) => unknown;
  response: R;
  status: number;
  /** The response may stream (the handler returns an AsyncIterable of items), framed so; false: JSON only. */
  stream: false | StreamKind;
  /** The item that ends a stream whose work failed after the response began. */
  streamError: (message: string) => unknown;
  /** `sse`: the data of the event that ends a stream which completed (OpenAI's `[DONE]`). */
  sseDone?: string;
  scope: Scope;
  /** `kb` scope: what names the knowledge box. */
  kb?: KbRef;
  /** The least role; null only for `public` routes. */
  role: Role | null;
  summary: string;
}

const Empty = z.object({});
const NoBody = z.undefined().optional();
const defaultStreamError = (message: string) => ({ type: "error", detail: message });

/** A route's parameter names, in path order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
}

/** The scope and KB reference a definition declares or its path implies; throws on a contradiction. */
function scopeOf(def: { method: Method; path: string; scope?: Scope; kb?: KbRef; role?: Role | null }): {
  scope: Scope;
  kb?: KbRef;
} {
  const where = `route ${def.method} ${def.path}`;
  const names = pathParams(def.path);
  const kbParam = KB_PARAMS.find((p) => names.includes(p));
  const scope = def.scope ?? (kbParam || def.kb ? "kb" : undefined);
  if (!scope) throw new Error(`${where}: declare its scope (no knowledge-box parameter in the path)`);
  if (kbParam && scope !== "kb") throw new Error(`${where}: a path with :${kbParam} has the "kb" scope, not "${scope}"`);
  if (!def.role && scope !== "public") throw new Error(`${where}: only a public route has no role`);
  if (scope !== "kb") return { scope };
  const kb = def.kb && !(kbParam && "param" in def.kb && def.kb.as === "id") ? def.kb : kbParam && { param: kbParam, as: "id" };
  if (!kb) throw new Error(`${where}: a "kb" route needs a knowledge-box parameter or a \`kb\` reference`);
  if ("param" in kb && !names.includes(kb.param)) throw new Error(`${where}: no :${kb.param} in the path`);
  return { scope, kb: kb as KbRef };
}

/** Define a route; unset parts default to "nothing", the scope to `kb` when the path names a knowledge box. */
export function route<
  P extends z.ZodType = typeof Empty,
  Q extends z.ZodType = typeof Empty,
  B extends z.ZodType = typeof NoBody,
  R extends z.ZodType = z.ZodUnknown,
  H extends z.ZodType = typeof Empty,
>(def: {
  method: Method;
  path: string;
  params?: P;
  query?: Q;
  headers?: H;
  body?: B;
  bodyKind?: BodyKind;
  fromQuery?: (query: Record<string, string | string[]>) => unknown;
  response?: R;
  status?: number;
  stream?: false | StreamKind;
  streamError?: (message: string) => unknown;
  sseDone?: string;
  scope?: Scope;
  kb?: KbRef;
  role?: Role | null;
  summary: string;
}): RouteDef<P, Q, B, R, H> {
  if ((def.bodyKind === "query") !== Boolean(def.fromQuery))
    throw new Error(`route ${def.method} ${def.path}: a body sent as query parameters needs fromQuery, and only it`);
  return {
    method: def.method,
    path: def.path,
    params: (def.params ?? Empty) as P,
    query: (def.query ?? Empty) as Q,
    headers: (def.headers ?? Empty) as H,
    body: (def.body ?? NoBody) as B,
    bodyKind: def.bodyKind ?? (def.body ? "json" : "none"),
    fromQuery: def.fromQuery,
    response: (def.response ?? z.unknown()) as R,
    status: def.status ?? 200,
    stream: def.stream ?? false,
    streamError: def.streamError ?? defaultStreamError,
    sseDone: def.sseDone,
    ...scopeOf(def),
    role: def.role ?? null,
    summary: def.summary,
  };
}

export type ParamsOf<T extends RouteDef> = z.input<T["params"]>;
export type QueryOf<T extends RouteDef> = z.input<T["query"]>;
export type BodyOf<T extends RouteDef> = z.input<T["body"]>;
export type ResponseOf<T extends RouteDef> = z.output<T["response"]>;

// Kept zod-free in url.ts so the CLI can build URLs without loading zod.
export { buildPath, buildQuery } from "./url.js";
