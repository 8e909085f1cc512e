import type { z } from "zod";
import type { RouteDef, StreamKind } from "../api/route.js";

export type { RouteDef };

import { buildPath, buildQuery } from "../api/url.js";
import {
  httpTransport,
  jsonOf,
  ndjson,
  type RawRequest,
  type RawResponse,
  sse,
  type Target,
  type Transport,
} from "./transport.js";

declare const ROUTE: unique symbol;

/**
 * What the client needs of a route at run time (method, path and how it streams), typed by its
 * src/api definition. src/client/routes/ holds one for every route, generated from src/api, so a
 * command can call the daemon without loading zod and the wire schemas (see scripts/gen-routes.ts).
 */
export interface RouteRef<D extends RouteDef = RouteDef> {
  readonly method: D["method"];
  readonly path: string;
  readonly stream: D["stream"];
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

/** A call whose body is raw bytes (uploads, archives) and whose answer is read as it comes. */
export type RawCallInput<T extends RouteDef> = Omit<CallInput<T>, "body"> & { body?: RawRequest["body"] };

/** Read a streamed response's items, as the route's `stream` member says it streams (NDJSON or SSE). */
function itemsOf(kind: RouteDef["stream"], res: RawResponse): AsyncGenerator<unknown> {
  return kind === "sse" ? sse(res) : ndjson(res);
}

/** A typed client over the wire contract: every call goes through a route of src/api. */
export class KboxClient {
  /** `transport` defaults to node:http to `target`; tests pass a fake one. */
  constructor(
    readonly target: Target,
    private readonly transport: Transport = httpTransport(target),
  ) {}

  private request<T extends RouteDef>(
    def: T | RouteRef<T>,
    input: Omit<CallInput<T>, "body">,
  ): Omit<RawRequest, "body"> & { headers: Record<string, string> } {
    const path =
      buildPath(def.path, (input.params ?? {}) as Record<string, string>) + buildQuery(input.query as Record<string, unknown>);
    return { method: def.method, path, headers: { ...input.headers }, signal: input.signal };
  }

  private jsonRequest<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T>): RawRequest {
    const req: RawRequest = this.request(def, input);
    if (input.body !== undefined) {
      req.body = JSON.stringify(input.body);
      (req.headers as Record<string, string>)["content-type"] = "application/json";
    }
    return req;
  }

  /** Call a JSON route (a src/api route or its RouteRef); throws ApiError on an error status. */
  async call<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T> = {}): Promise<z.output<T["response"]>> {
    const res = await this.transport(this.jsonRequest(def, input));
    return (await jsonOf(res)) as z.output<T["response"]>;
  }

  /** Call a streaming route and iterate its items. */
  async *stream<T extends RouteDef>(def: T | RouteRef<T>, input: CallInput<T> = {}): AsyncGenerator<unknown> {
    const res = await this.transport(this.jsonRequest(def, input));
    yield* itemsOf(def.stream, res);
  }

  /** Call a route whose request body is raw bytes (uploads, archives); throws ApiError on an error status. */
  async callRaw<T extends RouteDef>(def: T | RouteRef<T>, input: RawCallInput<T> = {}): Promise<z.output<T["response"]>> {
    return (await jsonOf(await this.exchange(def, input))) as z.output<T["response"]>;
  }

  /** Call a route with a raw body (or none) and get the raw response, to read as it comes (downloads, TUS). */
  exchange<T extends RouteDef>(def: T | RouteRef<T>, input: RawCallInput<T> = {}): Promise<RawResponse> {
    return this.transport({ ...this.request(def, input), body: input.body });
  }

  /** A raw exchange to a path (TUS chunks go to the location the daemon answered). */
  raw(req: RawRequest): Promise<RawResponse> {
    return this.transport(req);
  }
}
