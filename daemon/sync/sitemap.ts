import { createHash } from "node:crypto";
import type { SyncConfig } from "../../src/api/sync.js";
import { Robots, fetchWithRetry, sitemapText } from "./http.js";
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

const decode = (s: string) =>
  s
    .replace(/^<!\[CDATA\[|\]\]>$/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .trim();

/** `<url>`/`<sitemap>` entries of a sitemap or sitemap index. */
export function parseSitemap(xml: string): { urls: Entry[]; sitemaps: string[] } {
  const urls: Entry[] = [];
  const sitemaps: string[] = [];
  for (const m of xml.matchAll(/<(url|sitemap)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    const loc = /<loc>([\s\S]*?)<\/loc>/i.exec(m[2])?.[1];
    if (!loc) continue;
    const lastmod = /<lastmod>([\s\S]*?)<\/lastmod>/i.exec(m[2])?.[1];
    if (m[1].toLowerCase() === "sitemap") sitemaps.push(decode(loc));
    else urls.push({ url: decode(loc), ...(lastmod ? { lastmod: decode(lastmod) } : {}) });
  }
  return { urls, sitemaps };
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
      const res = await fetchWithRetry(sm, {}, ctx.signal);
      if (res.status >= 400) throw new Error(`sitemap ${sm} answered HTTP ${res.status}`);
      const parsed = parseSitemap(sitemapText(res.body));
      for (const u of parsed.urls) if (out.size < MAX_URLS) out.set(u.url, u);
      next.push(...parsed.sitemaps);
    }
    level = next;
  }
  return [...out.values()];
}

async function robotsFor(ctx: RunContext, root: string): Promise<Robots> {
  try {
    const res = await fetchWithRetry(new URL("/robots.txt", root).toString(), {}, ctx.signal);
    return res.status === 200 ? Robots.parse(res.body.toString("utf8")) : Robots.parse("");
  } catch (e) {
    await ctx.log("WARNING", `robots.txt unreachable, crawling politely anyway: ${(e as Error).message}`);
    return Robots.parse("");
  }
}

const linkField = (config: SyncConfig, url: string) => ({
  page: { uri: url, ...(config.css_selector ? { css_selector: config.css_selector } : {}), ...(config.xpath ? { xpath: config.xpath } : {}) },
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
  const page = await fetchWithRetry(e.url, headers, ctx.signal);
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
    const created = await ctx.resources.create(ctx.kbid, { title: e.url, origin, ...labels, links: linkField(ctx.config, e.url) });
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
