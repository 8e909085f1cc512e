import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fetch as undiciFetch } from "undici";
import type { LinkField } from "../../../src/api/fields.js";
import type { FetchPolicy } from "../../net/outbound.js";
import type { Extracted } from "../types.js";
import { blockedCause, checkUrlHost, policyDispatcher } from "./address-guard.js";
import { ExtractionError } from "./errors.js";
import { extractFile } from "./file.js";
import { extractHtml } from "./html.js";

/** The fetch function used for links (undici's by default; tests and callers may pass their own). */
export type FetchImpl = (
  url: string,
  init: Record<string, unknown>,
) => Promise<{
  status: number;
  url?: string;
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | null;
}>;

/** Limits and plumbing for fetching a link. */
export interface LinkOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  fetchImpl?: FetchImpl;
  /** The daemon's outbound policy (default: everything allowed here; the queue passes the daemon's). */
  policy?: FetchPolicy;
}

const DEFAULTS = { timeoutMs: 30_000, maxBytes: 50 * 1024 * 1024, maxRedirects: 5 };
const USER_AGENT = "kbox/0.1 (local knowledge box)";

/** Fetches a link field's page and extracts its main content (or the css_selector/xpath part). */
export async function extractLink(value: LinkField, opts: LinkOptions = {}): Promise<Extracted> {
  const o = { ...DEFAULTS, ...opts };
  const signal = opts.signal
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(o.timeoutMs)])
    : AbortSignal.timeout(o.timeoutMs);
  const dir = await mkdtemp(join(tmpdir(), "kbox-link-"));
  try {
    const { res, url: finalUrl } = await fetchFollowing(value, o, signal);
    const file = join(dir, "body");
    await saveBody(res, file, o.maxBytes, signal, value.uri);
    const type = res.headers.get("content-type") ?? "";
    let ex: Extracted;
    if (/^\s*(text\/html|application\/xhtml\+xml)/i.test(type)) {
      const html = decode(await readFile(file), type);
      ex = extractHtml(html, { mainContent: true, cssSelector: value.css_selector, xpath: value.xpath });
    } else {
      ex = await extractFile({ path: file, filename: fileName(res, finalUrl), contentType: type, htmlMainContent: true });
    }
    ex.metadata = { ...ex.metadata, uri: value.uri, url: finalUrl, status: res.status };
    if (value.language) ex.metadata.language = value.language;
    return ex;
  } catch (err) {
    throw fetchError(err, value.uri, o.timeoutMs, opts.signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Res = Awaited<ReturnType<FetchImpl>>;

async function fetchFollowing(
  value: LinkField,
  o: typeof DEFAULTS & LinkOptions,
  signal: AbortSignal,
): Promise<{ res: Res; url: string }> {
  const doFetch = o.fetchImpl ?? (undiciFetch as unknown as FetchImpl);
  let url = value.uri;
  for (let hop = 0; ; hop++) {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new ExtractionError("INVALID_INPUT", `Only http and https links can be fetched, not ${u.protocol}`);
    }
    // Every hop is checked: a public page may redirect to an internal one.
    if (o.policy) checkUrlHost(u, o.policy);
    const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    Object.assign(headers, lowerKeys(value.headers ?? {}));
    const cookies = Object.entries(value.cookies ?? {}).map(([k, v]) => `${k}=${v}`);
    // Cookies are the caller's for the link's own host: never hand them to another host on a redirect.
    if (cookies.length && u.host === new URL(value.uri).host) headers.cookie = cookies.join("; ");
    const dispatcher = o.policy && policyDispatcher(o.policy, u);
    const guard = dispatcher ? { dispatcher } : {};
    const res = await doFetch(url, { headers, redirect: "manual", signal, ...guard });
    const loc = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && loc) {
      await discard(res);
      if (hop >= o.maxRedirects)
        throw new ExtractionError("FETCH_FAILED", `Too many redirects (more than ${o.maxRedirects}) from ${value.uri}`);
      url = new URL(loc, url).toString();
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      await discard(res);
      // 408, 429 and 5xx may well work later: the queue retries them; other statuses are final.
      const transient = res.status === 408 || res.status === 429 || res.status >= 500;
      const retryAfterMs = transient ? retryAfter(res.headers.get("retry-after")) : undefined;
      throw new ExtractionError("FETCH_FAILED", `Fetching ${url} failed: HTTP ${res.status}`, { transient, retryAfterMs });
    }
    return { res, url };
  }
}

async function saveBody(res: Res, file: string, maxBytes: number, signal: AbortSignal, uri: string): Promise<void> {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  const tooLarge = () => new ExtractionError("TOO_LARGE", `${uri} is larger than the ${maxBytes}-byte limit`);
  if (declared > maxBytes) {
    await discard(res);
    throw tooLarge();
  }
  const out = createWriteStream(file);
  try {
    let total = 0;
    for await (const chunk of res.body ?? []) {
      total += chunk.byteLength;
      if (total > maxBytes) throw tooLarge();
      signal.throwIfAborted();
      if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
  } finally {
    await new Promise<void>((r) => out.end(() => r()));
  }
}

async function discard(res: Res): Promise<void> {
  try {
    const body = res.body as unknown as { cancel?: () => Promise<void> } | null;
    await body?.cancel?.();
  } catch {}
}

function decode(buf: Buffer, contentType: string): string {
  let charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  if (!charset) charset = /<meta[^>]+charset=["']?([\w-]+)/i.exec(buf.subarray(0, 4096).toString("latin1"))?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(buf);
  } catch {
    return new TextDecoder("utf-8").decode(buf);
  }
}

function fileName(res: Res, url: string): string {
  const cd = res.headers.get("content-disposition") ?? "";
  const m = /filename\*?=(?:UTF-8'')?["']?([^"';]+)/i.exec(cd);
  if (m) return basename(decodeURIComponent(m[1]));
  return basename(new URL(url).pathname) || "index";
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfter(v: string | null): number | undefined {
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Network failures and timeouts are transient (the queue retries them); a cancel by the caller is not a failure of the link. */
function fetchError(err: unknown, uri: string, timeoutMs: number, callerSignal?: AbortSignal): ExtractionError {
  if (err instanceof ExtractionError) return err;
  const blocked = blockedCause(err);
  if (blocked) return blocked;
  const e = err as Error & { cause?: Error };
  if (callerSignal?.aborted) return new ExtractionError("FETCH_FAILED", `Fetching ${uri} was cancelled`);
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") {
    return new ExtractionError("FETCH_TIMEOUT", `Fetching ${uri} timed out after ${timeoutMs} ms`, { transient: true });
  }
  const detail = e?.cause?.message ?? e?.message ?? String(err);
  return new ExtractionError("FETCH_FAILED", `Fetching ${uri} failed: ${detail}`, { cause: err, transient: true });
}
