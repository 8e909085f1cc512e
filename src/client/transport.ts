import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { ApiError, UnreachableError } from "./errors.js";

/** Where requests go: the local daemon's socket, or a base URL (a remote zone or a TCP daemon). */
export type Target =
  | { kind: "unix"; socket: string }
  | {
      kind: "http";
      baseUrl: string;
      apiKey?: string;
      /** What apiKey is (default a service-account key); it decides the header. */
      credential?: "kb-key" | "account-key" | "user-token" | "nua-key";
    };

/** The header a credential of each kind travels in. */
export function credentialHeader(kind: string | undefined): string {
  if (kind === "user-token") return "authorization";
  if (kind === "nua-key") return "x-nuclia-nuakey";
  return "x-nuclia-serviceaccount";
}

export interface RawRequest {
  method: string;
  /** Path starting with /api/v1. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string | Readable;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/**
 * One HTTP exchange. The CLI's is node:http to the profile's target (`httpTransport`); a test hands
 * the CLI a fake one that records the requests and answers canned wire responses.
 */
export type Transport = (req: RawRequest) => Promise<RawResponse>;

/** The real transport: requests go over node:http to the daemon's socket or a base URL. */
export const httpTransport =
  (target: Target): Transport =>
  (req) =>
    send(target, req);

// EPIPE: a daemon that is shutting down can accept a connection and close it before reading.
const UNREACHABLE = new Set([
  "ENOENT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EAI_AGAIN",
]);

/**
 * One HTTP exchange over node:http (no client library: it keeps CLI start-up fast). A request on a
 * reused keep-alive socket that the server closed meanwhile fails with ECONNRESET before any answer;
 * it is sent once more on a fresh connection when its body can be replayed.
 */
export async function send(target: Target, req: RawRequest): Promise<RawResponse> {
  try {
    return await sendOnce(target, req);
  } catch (e) {
    const replayable = req.body === undefined || typeof req.body === "string" || Buffer.isBuffer(req.body);
    if (e instanceof StaleSocketError && replayable) return sendOnce(target, req, false);
    throw e instanceof StaleSocketError ? e.cause : e;
  }
}

/** ECONNRESET on a reused keep-alive socket before any response. */
class StaleSocketError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

function sendOnce(target: Target, req: RawRequest, reuse = true): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "user-agent": "kbox", ...req.headers };
    // node:http sends GET/DELETE/HEAD bodies without a length, which the server reads as a new request.
    if (
      (typeof req.body === "string" || Buffer.isBuffer(req.body)) &&
      !Object.keys(headers).some((k) => k.toLowerCase() === "content-length")
    ) {
      headers["content-length"] = String(Buffer.byteLength(req.body));
    }
    let opts: import("node:http").RequestOptions;
    let requester = httpRequest;
    if (target.kind === "unix") {
      opts = { socketPath: target.socket, path: req.path, method: req.method, headers: { host: "kboxd", ...headers } };
    } else {
      const url = new URL(req.path, target.baseUrl.replace(/\/+$/, "/").replace(/\/api\/v1\/?$/, "/"));
      if (target.apiKey) headers[credentialHeader(target.credential)] = `Bearer ${target.apiKey}`;
      if (url.protocol === "https:") requester = httpsRequest;
      opts = {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        headers,
      };
    }
    const r = requester({ ...opts, signal: req.signal, ...(reuse ? {} : { agent: false }) }, (res) =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    r.on("error", (e: NodeJS.ErrnoException) => {
      if (r.reusedSocket && e.code === "ECONNRESET") {
        const where = target.kind === "unix" ? target.socket : target.baseUrl;
        reject(new StaleSocketError(new UnreachableError(`cannot reach ${where} (${e.code})`)));
      } else if (e.code && UNREACHABLE.has(e.code)) {
        const where = target.kind === "unix" ? target.socket : target.baseUrl;
        reject(new UnreachableError(`cannot reach ${where} (${e.code})`));
      } else reject(e);
    });
    const body = req.body;
    if (body === undefined || typeof body === "string" || Buffer.isBuffer(body)) r.end(body);
    else body.pipe(r);
  });
}

export async function readAll(body: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(typeof c === "string" ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/** Parse a JSON response, or throw ApiError for an error status. */
export async function jsonOf(res: RawResponse): Promise<unknown> {
  const buf = await readAll(res.body);
  const text = buf.toString("utf8");
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (res.status >= 400) throw new ApiError(res.status, (data as { detail?: unknown } | undefined)?.detail ?? data);
  return data;
}

/** Read NDJSON items as they arrive. */
export async function* ndjson(res: RawResponse): AsyncGenerator<unknown> {
  if (res.status >= 400) {
    await jsonOf(res);
    return;
  }
  // A multi-byte character may straddle two chunks: the decoder holds its first bytes back.
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body) {
    buf += typeof chunk === "string" ? chunk : decoder.decode(chunk as Buffer, { stream: true });
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) yield JSON.parse(line);
      nl = buf.indexOf("\n");
    }
  }
  if (buf.trim()) yield JSON.parse(buf);
}

/** Server-sent events: the JSON of each event's `data:` lines, in order (a non-JSON data, like `[DONE]`, ends the stream). */
export async function* sse(res: RawResponse): AsyncGenerator<unknown> {
  if (res.status >= 400) {
    await jsonOf(res);
    return;
  }
  const decoder = new TextDecoder();
  let buf = "";
  const parse = (block: string): unknown => {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    return data ? data : undefined;
  };
  for await (const chunk of res.body) {
    buf += (typeof chunk === "string" ? chunk : decoder.decode(chunk as Buffer, { stream: true })).replace(/\r\n/g, "\n");
    let end = buf.indexOf("\n\n");
    while (end >= 0) {
      const data = parse(buf.slice(0, end));
      buf = buf.slice(end + 2);
      if (data !== undefined) {
        if (!/^[[{"]/.test(data as string) || data === "[DONE]") return;
        yield JSON.parse(data as string);
      }
      end = buf.indexOf("\n\n");
    }
  }
  const last = parse(buf);
  if (last !== undefined && /^[[{"]/.test(last as string) && last !== "[DONE]") yield JSON.parse(last as string);
}
