import { createHash } from "node:crypto";
import type { SyncConfig } from "../../src/api/sync.js";
import { fetchWithRetry, Robots, sitemapText } from "./http.js";
import { ownedResources } from "./resources.js";
import type { RunContext } from "./run-context.js";

const MAX_URLS = 50_000;
const MAX_DEPTH = 3;
const CONCURRENCY = 2;
const MIN_INTERVAL_MS = 100;

interface Entry {
  url: string;
  lastmod?: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Text of an element: CDATA sections kept verbatim, entities (named and numeric) decoded once. */
export function decodeXmlText(s: string): string {
  return s
    .trim()
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith("<![CDATA[")
        ? part.slice(9, -3)
        : part.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
            if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? m;
            const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
            return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
          }),
    )
    .join("")
    .trim();
}

/** `<url>`/`<sitemap>` entries of a sitemap or sitemap index. */
export function parseSitemap(xml: string): { urls: Entry[]; sitemaps: string[] } {
  const urls: Entry[] = [];
  const sitemaps: string[] = [];
  // Comments may hold commented-out entries.
  const body = xml.replace(/<!--[\s\S]*?-->/g, "");
  for (const m of body.matchAll(/<(url|sitemap)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    const raw = /<loc>([\s\S]*?)<\/loc>/i.exec(m[2])?.[1];
    const loc = raw === undefined ? "" : decodeXmlText(raw);
    if (!loc) continue;
    const lastmod = /<lastmod>([\s\S]*?)<\/lastmod>/i.exec(m[2])?.[1];
    if (m[1].toLowerCase() === "sitemap") sitemaps.push(loc);
    else urls.push({ url: loc, ...(lastmod ? { lastmod: decodeXmlText(lastmod) } : {}) });
  }
  return { urls, sitemaps };
}

/** An http(s) URL resolved against the sitemap that lists it; undefined for anything else. */
function absolute(loc: string, base: string): string | undefined {
  try {
    const u = new URL(loc, base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

async function collect(ctx: RunContext, root: string): Promise<Entry[]> {
  const seen = new Set<string>();
  const out = new Map<string, Entry>();
  let level = [root];
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const sm of level) {
      if (seen.has(sm)) continue;
      seen.add(sm);
      const res = await fetchWithRetry(sm, ctx.fetch, {}, ctx.signal);
      if (res.status >= 400) throw new Error(`sitemap ${sm} answered HTTP ${res.status}`);
      const parsed = parseSitemap(sitemapText(res.body));
      for (const u of parsed.urls) {
        const url = absolute(u.url, sm);
        if (url && out.size < MAX_URLS) out.set(url, { ...u, url });
      }
      for (const s of parsed.sitemaps) {
        const url = absolute(s, sm);
        if (url) next.push(url);
      }
    }
    level = next;
  }
  return [...out.values()];
}

async function robotsFor(ctx: RunContext, root: string): Promise<Robots> {
  try {
    const res = await fetchWithRetry(new URL("/robots.txt", root).toString(), ctx.fetch, {}, ctx.signal);
    return res.status === 200 ? Robots.parse(res.body.toString("utf8")) : Robots.parse("");
  } catch (e) {
    await ctx.log("WARNING", `robots.txt unreachable, crawling politely anyway: ${(e as Error).message}`);
    return Robots.parse("");
  }
}

const linkField = (config: SyncConfig, url: string) => ({
  page: {
    uri: url,
    ...(config.css_selector ? { css_selector: config.css_selector } : {}),
    ...(config.xpath ? { xpath: config.xpath } : {}),
  },
});

/** Fetch the sitemap, create/refresh link resources for its pages, remove the pages that left it. */
export async function syncSitemap(ctx: RunContext, opts: { full: boolean }): Promise<void> {
  const root = ctx.config.sync_root_path;
  if (!root) throw new Error("the sync config has no sitemap URL (sync_root_path)");
  const robots = await robotsFor(ctx, root);
  const all = await collect(ctx, root);
  const entries = all.filter((e) => robots.allowed(e.url));
  ctx.stats.skipped += all.length - entries.length;
  await ctx.log("INFO", `sitemap lists ${all.length} pages (${all.length - entries.length} disallowed by robots.txt)`);
  const owned = ownedResources(ctx.store, ctx.config.id);
  const interval = Math.max(MIN_INTERVAL_MS, robots.crawlDelayMs);
  let nextSlot = Date.now();
  const queue = [...entries];
  const worker = async () => {
    for (let e = queue.shift(); e; e = queue.shift()) {
      if (ctx.signal?.aborted) throw new Error("cancelled");
      const wait = nextSlot - Date.now();
      nextSlot = Math.max(Date.now(), nextSlot) + interval;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const entry = e;
      ctx.stats.scanned++;
      await ctx.attempt(entry.url, () => syncPage(ctx, entry, owned.get(entry.url), opts.full));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const listed = new Set(entries.map((e) => e.url));
  for (const [url, r] of owned) {
    if (listed.has(url)) continue;
    await ctx.attempt(url, async () => {
      await ctx.resources.delete(ctx.kbid, { rid: r.id });
      ctx.stats.deleted++;
      await ctx.log("INFO", `removed ${url} (no longer in the sitemap)`, { rid: r.id, url });
    });
  }
}

type Owned = ReturnType<typeof ownedResources> extends Map<string, infer R> ? R : never;

async function syncPage(ctx: RunContext, e: Entry, res: Owned | undefined, full: boolean): Promise<void> {
  const meta = (res?.origin?.metadata ?? {}) as Record<string, string>;
  if (res && !full && e.lastmod && meta.lastmod === e.lastmod) {
    ctx.stats.unchanged++;
    return;
  }
  const headers: Record<string, string> = {};
  if (res && !full && meta.etag) headers["if-none-match"] = meta.etag;
  if (res && !full && meta.last_modified) headers["if-modified-since"] = meta.last_modified;
  const page = await fetchWithRetry(e.url, ctx.fetch, headers, ctx.signal);
  if (page.status === 304) {
    ctx.stats.unchanged++;
    return;
  }
  if (page.status >= 400) throw new Error(`HTTP ${page.status}`);
  const hash = createHash("sha256").update(page.body).digest("hex");
  const origin = {
    url: e.url,
    source_id: ctx.config.id,
    source: "kbox-sync",
    metadata: {
      ...(e.lastmod ? { lastmod: e.lastmod } : {}),
      ...(page.headers.etag ? { etag: page.headers.etag } : {}),
      ...(page.headers["last-modified"] ? { last_modified: page.headers["last-modified"] } : {}),
      sync_config: ctx.config.name,
    },
    sync_metadata: { file_id: e.url, content_hash: hash, auth_provider: "sitemap" },
  };
  const labels = ctx.config.labels.length ? { usermetadata: { classifications: ctx.config.labels } } : {};
  if (!res) {
    const created = await ctx.resources.create(ctx.kbid, {
      title: e.url,
      origin,
      ...labels,
      links: linkField(ctx.config, e.url),
    });
    ctx.stats.added++;
    await ctx.log("INFO", `added ${e.url}`, { rid: created.uuid, url: e.url });
    return;
  }
  if (res.origin?.sync_metadata?.content_hash === hash && !full) {
    await ctx.resources.update(ctx.kbid, { rid: res.id }, { origin });
    ctx.stats.unchanged++;
    return;
  }
  await ctx.resources.update(ctx.kbid, { rid: res.id }, { origin, ...labels, links: linkField(ctx.config, e.url) });
  ctx.stats.updated++;
  await ctx.log("INFO", `updated ${e.url}`, { rid: res.id, url: e.url });
}
