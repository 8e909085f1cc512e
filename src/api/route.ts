import { z } from "zod";

/** HTTP methods the wire uses. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/** Local roles of wire.md; each route names the least role it needs. */
export const Role = z.enum(["READER", "WRITER", "MANAGER", "OWNER"]);
export type Role = z.infer<typeof Role>;

/** How a route's body travels: JSON (default), raw bytes (uploads) or none. */
export type BodyKind = "json" | "raw" | "none";

/** One endpoint of the wire: the single definition both daemon and client use. */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** Path with `:name` parameters, e.g. `/api/v1/kb/:kbid`. */
  path: string;
  params: P;
  query: Q;
  body: B;
  bodyKind: BodyKind;
  response: R;
  status: number;
  /** The response is NDJSON, one item a line. */
  stream: boolean;
  role: Role;
  summary: string;
}

const Empty = z.object({});
const NoBody = z.undefined().optional();

/** Define a route; unset parts default to "nothing". */
export function route<
  P extends z.ZodType = typeof Empty,
  Q extends z.ZodType = typeof Empty,
  B extends z.ZodType = typeof NoBody,
  R extends z.ZodType = z.ZodUnknown,
>(def: {
  method: Method;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  bodyKind?: BodyKind;
  response?: R;
  status?: number;
  stream?: boolean;
  role: Role;
  summary: string;
}): RouteDef<P, Q, B, R> {
  return {
    method: def.method,
    path: def.path,
    params: (def.params ?? Empty) as P,
    query: (def.query ?? Empty) as Q,
    body: (def.body ?? NoBody) as B,
    bodyKind: def.bodyKind ?? (def.body ? "json" : "none"),
    response: (def.response ?? z.unknown()) as R,
    status: def.status ?? 200,
    stream: def.stream ?? false,
    role: def.role,
    summary: def.summary,
  };
}

export type ParamsOf<T extends RouteDef> = z.input<T["params"]>;
export type QueryOf<T extends RouteDef> = z.input<T["query"]>;
export type BodyOf<T extends RouteDef> = z.input<T["body"]>;
export type ResponseOf<T extends RouteDef> = z.output<T["response"]>;

// Kept zod-free in url.ts so the CLI can build URLs without loading zod.
export { buildPath, buildQuery } from "./url.js";
