import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

/** A small site: a sitemap index pointing at a plain and a gzipped sitemap, robots.txt, pages. */
function site() {
  const state = {
    pages: new Map<string, string>([
      ["/a", "<html><head><title>A</title></head><body><p>Page A about apples.</p></body></html>"],
      ["/b", "<html><head><title>B</title></head><body><p>Page B about bananas.</p></body></html>"],
      ["/gone", "<html><body><p>This page will leave the sitemap.</p></body></html>"],
      ["/private/x", "<html><body><p>Disallowed by robots.</p></body></html>"],
    ]),
    listedInSecond: ["/b", "/gone", "/broken"],
    hits: new Map<string, number>(),
  };
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    state.hits.set(url, (state.hits.get(url) ?? 0) + 1);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const urlset = (paths: string[]) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${base}${p}</loc></url>`).join("")}</urlset>`;
    if (url === "/robots.txt") return res.end("User-agent: *\nDisallow: /private/\n");
    if (url === "/sitemap.xml")
      return res.end(
        `<sitemapindex><sitemap><loc>${base}/s1.xml</loc></sitemap><sitemap><loc>${base}/s2.xml.gz</loc></sitemap></sitemapindex>`,
      );
    if (url === "/s1.xml") return res.end(urlset(["/a", "/private/x"]));
    if (url === "/s2.xml.gz") return res.end(gzipSync(urlset(state.listedInSecond)));
    if (url === "/broken") {
      res.statusCode = 500;
      return res.end("boom");
    }
    const page = state.pages.get(url);
    if (!page) {
      res.statusCode = 404;
      return res.end();
    }
    const etag = `"${Buffer.from(page).length}-${page.length}"`;
    if (req.headers["if-none-match"] === etag) {
      res.statusCode = 304;
      return res.end();
    }
    res.setHeader("etag", etag);
    res.setHeader("content-type", "text/html");
    res.end(page);
  });
  return { server, state };
}

let d: TestDaemon;
let kbid: string;
let web: ReturnType<typeof site>;
let base: string;

beforeAll(async () => {
  web = site();
  await new Promise<void>((r) => web.server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "web" } })).uuid;
});

afterAll(async () => {
  await d.stop();
  await new Promise<void>((r) => (web.server as Server).close(() => r()));
});

async function settled(configId: string, after = 0) {
  for (let i = 0; i < 300; i++) {
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 1 } });
    const j = jobs.items[0];
    if (j && Date.parse(j.created_at) >= after && (j.status === "completed" || j.status === "failed")) return j;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("sync did not finish");
}

async function urls(): Promise<Map<string, string>> {
  const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
  const out = new Map<string, string>();
  for (const r of list.resources) {
    const full = await d.client.call(resources.getResource.byId, {
      params: { kbid, rid: r.id },
      query: { show: ["origin", "values"] },
    });
    out.set((full.origin as { url: string }).url.replace(base, ""), r.id);
  }
  return out;
}

describe("sitemap sync", () => {
  let configId: string;

  it("follows a sitemap index (gzip too), honours robots.txt, and logs a page that errors", async () => {
    const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "sitemap" } });
    const config = await d.client.call(sync.addConfig, {
      params: { kbid },
      body: { name: "site", external_connection_id: conn.id, sync_root_path: `${base}/sitemap.xml`, css_selector: "p" },
    });
    configId = config.id;
    const job = await settled(configId);
    expect(job.status).toBe("completed");
    expect([...(await urls()).keys()].sort()).toEqual(["/a", "/b", "/gone"]);
    expect(web.state.hits.get("/private/x")).toBeUndefined();
    expect(job.stats).toMatchObject({ added: 3, failed: 1, skipped: 1 });
    const errors = await d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { level: "ERROR" } });
    expect(errors.items.map((e) => e.message).join("\n")).toMatch(/\/broken: HTTP 500/);
    const one = await d.client.call(resources.getResource.byId, {
      params: { kbid, rid: (await urls()).get("/a")! },
      query: { show: ["values"] },
    });
    expect((one.data as any).links.page.value).toMatchObject({ uri: `${base}/a`, css_selector: "p" });
  });

  it("re-fetches only changed pages and removes pages that left the sitemap", async () => {
    const before = await urls();
    web.state.pages.set("/b", "<html><body><p>Page B now about blueberries.</p></body></html>");
    web.state.listedInSecond = ["/b", "/broken"];
    const t0 = Date.now();
    await d.client.call(sync.triggerSync, { params: { kbid, config_id: configId }, body: {} });
    const job = await settled(configId, t0 - 1000);
    expect(job.stats).toMatchObject({ updated: 1, deleted: 1, unchanged: 1, added: 0 });
    const after = await urls();
    expect([...after.keys()].sort()).toEqual(["/a", "/b"]);
    expect(after.get("/b")).toBe(before.get("/b"));
  });

  it("a dead site fails the job without stalling the daemon", async () => {
    const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "sitemap" } });
    const config = await d.client.call(sync.addConfig, {
      params: { kbid },
      body: { name: "dead", external_connection_id: conn.id, sync_root_path: "http://127.0.0.1:9/sitemap.xml" },
    });
    const job = await settled(config.id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/ECONNREFUSED|connect/i);
    expect((await d.client.call(kbs.listKbs)).kbs.length).toBeGreaterThan(0);
  });
});
