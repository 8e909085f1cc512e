import type { Context } from "hono";
import type { z } from "zod";
import { issue, toValidationIssues } from "../../src/api/errors.js";
import { invalid, KboxError } from "../errors.js";

/** Bodies above this are refused with 413 before parsing; uploads stream instead. */
export const JSON_BODY_LIMIT = 64 * 1024 * 1024;

/** No wire payload nests this deep; deeper documents would only overflow the stack further on. */
const MAX_JSON_DEPTH = 64;

const tooLarge = (limit: number) => new KboxError(413, `Request body too large (limit ${limit} bytes)`);

/** A JSON body, or undefined when there is none; 413 over `limit` (by content-length first), 422 when malformed. */
export async function readJson(req: Request, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const len = Number(req.headers.get("content-length") ?? "0");
  if (len > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
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
export function readQuery(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0] : v;
  return out;
}

/** Request headers by lower-case name. */
export function readHeaders(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** Parse with a wire schema; problems are 422 located under `where`. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where: "path" | "query" | "header" | "body"): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw invalid(toValidationIssues(r.error, where, input));
  return r.data as z.output<S>;
}
