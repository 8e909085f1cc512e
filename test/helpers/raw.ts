import type { KboxClient } from "../../src/client/client.js";
import { readAll } from "../../src/client/transport.js";

/** A raw exchange's outcome: status, headers and the parsed (or text) body. */
export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** Send one raw request through a client (socket or TCP) and read the whole answer. */
export async function rawCall(
  client: KboxClient,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResult> {
  const h = { ...headers };
  let payload: string | Buffer | undefined;
  if (typeof body === "string" || Buffer.isBuffer(body)) payload = body;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === "content-type"))
    h["content-type"] = "application/json";
  const res = await client.raw({ method, path, headers: h, body: payload });
  const text = (await readAll(res.body)).toString("utf8");
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A raw request to a TCP base URL with fetch, headers exactly as given. */
export async function fetchJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}
