import type { z } from "zod";
import { type RouteDef, buildPath, buildQuery } from "../api/route.js";
import { type RawRequest, type RawResponse, type Target, jsonOf, ndjson, send } from "./transport.js";

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

  private request<T extends RouteDef>(def: T, input: CallInput<T>): RawRequest {
    const path = buildPath(def.path, (input.params ?? {}) as Record<string, string>) + buildQuery(input.query as Record<string, unknown>);
    const headers: Record<string, string> = { ...this.defaultHeaders, ...input.headers };
    let body: string | undefined;
    if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers["content-type"] = "application/json";
    }
    return { method: def.method, path, headers, body, signal: input.signal };
  }

  /** Call a JSON route; throws ApiError on an error status. */
  async call<T extends RouteDef>(def: T, input: CallInput<T> = {}): Promise<z.output<T["response"]>> {
    const res = await send(this.target, this.request(def, input));
    return (await jsonOf(res)) as z.output<T["response"]>;
  }

  /** Call a streaming route and iterate its NDJSON items. */
  async *stream<T extends RouteDef>(def: T, input: CallInput<T> = {}): AsyncGenerator<unknown> {
    const res = await send(this.target, this.request(def, input));
    yield* ndjson(res);
  }

  /** A raw exchange, for uploads and downloads. */
  raw(req: RawRequest): Promise<RawResponse> {
    return send(this.target, { ...req, headers: { ...this.defaultHeaders, ...req.headers } });
  }
}
