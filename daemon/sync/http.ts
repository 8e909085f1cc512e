import { gunzipSync } from "node:zlib";
import { request } from "undici";
import { BlockedFetchError, checkTarget, type FetchPolicy, policyDispatcher } from "../net/outbound.js";

/** Limits that keep a slow or hostile site from stalling the daemon. */
export const FETCH_LIMITS = { timeoutMs: 15_000, maxBytes: 50 * 1024 * 1024, retries: 3, backoffMs: 250 };

export interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const UA = "kbox-sync/1 (+local knowledge box)";

/** GET with a timeout, a size cap, bounded redirects and bounded retries with backoff on 5xx/network errors. */
export async function fetchWithRetry(
  url: string,
  policy: FetchPolicy,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Fetched> {
  let lastErr: unknown;
  for (let attempt = 0; attempt <= FETCH_LIMITS.retries; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, FETCH_LIMITS.backoffMs * 2 ** (attempt - 1)));
    if (signal?.aborted) throw new Error("cancelled");
    try {
      const res = await fetchOnce(url, policy, headers, signal);
      if (res.status >= 500 && attempt < FETCH_LIMITS.retries) {
        lastErr = new Error(`HTTP ${res.status}`);
        continue;
      }
      return res;
    } catch (e) {
      // The owner's policy refused the target: trying again changes nothing.
      const blocked = blockedIn(e);
      if (blocked) throw blocked;
      lastErr = e;
    }
  }
  throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
}

function blockedIn(e: unknown): BlockedFetchError | undefined {
  for (let x = e as { cause?: unknown } | undefined, i = 0; x && i < 6; x = x.cause as typeof x, i++)
    if (x instanceof BlockedFetchError) return x;
  return undefined;
}

/** One GET under the outbound policy: the URL and every redirect hop checked, the connected address checked. */
async function fetchOnce(
  url: string,
  policy: FetchPolicy,
  headers: Record<string, string>,
  signal?: AbortSignal,
  redirects = 5,
): Promise<Fetched> {
  const target = checkTarget(url, policy);
  const timeout = AbortSignal.timeout(FETCH_LIMITS.timeoutMs);
  const dispatcher = policyDispatcher(policy, target);
  const res = await request(url, {
    ...(dispatcher ? { dispatcher } : {}),
    method: "GET",
    headers: { "user-agent": UA, "accept-encoding": "identity", ...headers },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    headersTimeout: FETCH_LIMITS.timeoutMs,
    bodyTimeout: FETCH_LIMITS.timeoutMs,
  });
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) h[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v);
  if (res.statusCode >= 300 && res.statusCode < 400 && h.location && redirects > 0) {
    await res.body.dump();
    return fetchOnce(new URL(h.location, url).toString(), policy, headers, signal, redirects - 1);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res.body) {
    size += (c as Buffer).length;
    if (size > FETCH_LIMITS.maxBytes) {
      res.body.destroy();
      throw new Error(`response over ${FETCH_LIMITS.maxBytes} bytes`);
    }
    chunks.push(c as Buffer);
  }
  return { status: res.statusCode, headers: h, body: Buffer.concat(chunks) };
}

/** A sitemap body, gunzipped when it is gzip (by magic bytes, whatever the name says). */
export function sitemapText(body: Buffer): string {
  return (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString("utf8");
}

/** robots.txt rules for our user agent (or `*`): longest matching Allow/Disallow wins. */
export class Robots {
  constructor(
    private readonly rules: { allow: boolean; path: string }[],
    readonly crawlDelayMs: number,
  ) {}

  /** `agents`: our product tokens (RFC 9309 matches them case-insensitively; groups naming one are merged). */
  static parse(text: string, agents: readonly string[] = ["kbox-sync", "kbox"]): Robots {
    const groups: { agents: string[]; rules: { allow: boolean; path: string }[]; delay?: number }[] = [];
    let cur: (typeof groups)[number] | undefined;
    let lastWasAgent = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/#.*/, "").trim();
      const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
      if (!m) continue;
      const key = m[1].toLowerCase();
      const val = m[2].trim();
      if (key === "user-agent") {
        if (!lastWasAgent || !cur) {
          cur = { agents: [], rules: [] };
          groups.push(cur);
        }
        cur.agents.push(val.toLowerCase());
        lastWasAgent = true;
        continue;
      }
      lastWasAgent = false;
      if (!cur) continue;
      if ((key === "disallow" || key === "allow") && val) cur.rules.push({ allow: key === "allow", path: val });
      if (key === "crawl-delay" && Number.isFinite(Number(val))) cur.delay = Number(val);
    }
    const ours = new Set(agents.map((a) => a.toLowerCase()));
    let mine = groups.filter((g) => g.agents.some((a) => ours.has(a)));
    if (!mine.length) mine = groups.filter((g) => g.agents.includes("*"));
    const delay = Math.max(0, ...mine.map((g) => g.delay ?? 0));
    return new Robots(
      mine.flatMap((g) => g.rules),
      Math.min(10_000, delay * 1000),
    );
  }

  allowed(url: string): boolean {
    const u = new URL(url);
    const path = u.pathname + u.search;
    let best: { allow: boolean; path: string } | undefined;
    for (const r of this.rules) {
      const re = new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\\\$$/, "$")}`,
      );
      if (re.test(path) && (!best || r.path.length > best.path.length || (r.path.length === best.path.length && r.allow)))
        best = r;
    }
    return best?.allow ?? true;
  }
}
