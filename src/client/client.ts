import type { z } from "zod";
import type { RouteDef, StreamKind } from "../api/route.js";
import { buildPath, buildQuery } from "../api/url.js";
import { jsonOf, ndjson, type RawRequest, type RawResponse, send, type Target } from "./transport.js";

declare const ROUTE: unique symbol;

/**
 * What the client needs of a route at run time (method, path, how a streamed answer is framed), typed by its src/api definition.
 * src/client/routes/ holds one for every route, generated from src/api, so a command can call the
 * daemon without loading zod and the wire schemas (see scripts/gen-routes.ts).
 */
export interface RouteRef<D extends RouteDef = RouteDef> {
  readonly method: D["method"];
  readonly path: string;
  /** How the answer streams when it does (`ndjson` lines or `sse` events); false: always JSON. */
  readonly stream: false | StreamKind;
  /** Type only: the src/api route this refers to (absent at run time). */
  readonly [ROUTE]?: D;
}

/** A src/api value with every route replaced by its RouteRef (records of routes stay records). */
export type Routed<T> = T extends RouteDef ? RouteRef<T> : { readonly [K in keyof T]: Routed<T[K]> };

export interface CallInput<T extends RouteDef> {
  params?: z.input<T["params"]>;
  query?: z.input<T["query"]>;
  body?: z.input<T["body"]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A typed client over the wire contract: every call goes through a route of src/api. */
export class KboxClient {
  constructor(
    readonly target: Target,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  private request<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T>): RawRequest {
    const path =
      buildPath(def.path, (input.params ?? {}) as Record<string, string>) + buildQuery(input.query as Record<string, unknown>);
    const headers: Record<string, string> = { ...this.defaultHeaders, ...input.headers };
    let body: string | undefined;
    if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers["content-type"] = "application/json";
    }
    return { method: def.method, path, headers, body, signal: input.signal };
  }

  /** Call a JSON route (a src/api route or its RouteRef); throws ApiError on an error status. */
  async call<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T> = {}): Promise<z.output<T["response"]>> {
    const res = await send(this.target, this.request(def, input));
    return (await jsonOf(res)) as z.output<T["response"]>;
  }

  /** Call a streaming route and iterate its NDJSON items. */
  async *stream<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T> = {}): AsyncGenerator<unknown> {
    const res = await send(this.target, this.request(def, input));
    yield* ndjson(res);
  }

  /** A raw exchange, for uploads and downloads. */
  raw(req: RawRequest): Promise<RawResponse> {
    return send(this.target, { ...req, headers: { ...this.defaultHeaders, ...req.headers } });
  }
}
