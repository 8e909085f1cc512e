import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// A page that takes longer to answer than the paragraph table's settle time (3 s): the queue is busy
// with it while the table has been quiet since the first resource's paragraphs.
const SLOW_MS = 8000;
let web: Server;
let base: string;
let d: TestDaemon;

beforeAll(async () => {
  web = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><title>Slow</title></head><body><p>A page about slow tulips.</p></body></html>");
    }, SLOW_MS);
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  d = await startTestDaemon({ env: OFFLINE });
});
afterAll(async () => {
  await d?.stop();
  web.closeAllConnections();
  await new Promise((r) => web.close(r));
});

describe("paragraph table maintenance during ingestion", () => {
  it("waits while the queue has work for the box, and runs once its run is over", async () => {
    const kbid = (await d.client.call(kbs.createKb, { body: { slug: "maint" } })).uuid;
    const { store } = await d.daemon.services.kbs.open(kbid);
    const compact = vi.spyOn(store.paragraphs, "compact");
    const t0 = Date.now();
    await d.client.call(api.createResource, {
      params: { kbid },
      body: { title: "Fast", texts: { body: { body: "Tulips open in spring." } } },
    });
    await d.client.call(api.createResource, {
      params: { kbid },
      body: { title: "Slow", links: { page: { uri: `${base}/slow` } } },
    });
    const status = async (slug: string) => {
      const list = await d.client.call(api.listResources, { params: { kbid }, query: { page: 0, size: 10 } });
      return list.resources.find((r) => r.title === slug)?.metadata?.status;
    };
    await vi.waitFor(async () => expect(await status("Fast")).toBe("PROCESSED"), { timeout: 10_000, interval: 50 });
    const fast = Date.now(); // its paragraphs were written before this
    // The table has been quiet for more than its settle time while the page is still being fetched.
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + SLOW_MS - 500 - Date.now())));
    expect(Date.now() - fast).toBeGreaterThan(3000 + 500);
    expect(compact).not.toHaveBeenCalled();
    const terms = async () => (await store.paragraphs.indexes()).find((i) => i.column === "terms");
    expect(await terms()).toBeUndefined(); // nothing searched this box: no full-text index yet
    // Once the page is in and the queue is done, the table settles: compacted, then given its
    // full-text index over every paragraph, with still no search asking for it.
    await vi.waitFor(() => expect(compact).toHaveBeenCalled(), { timeout: 15_000, interval: 100 });
    const list = await d.client.call(api.listResources, { params: { kbid }, query: { page: 0, size: 10 } });
    expect(list.resources.map((r) => r.metadata?.status)).toEqual(["PROCESSED", "PROCESSED"]);
    const paragraphs = await store.paragraphs.count();
    expect(paragraphs).toBeGreaterThanOrEqual(4); // two titles, the text, the page
    await vi.waitFor(async () => expect(await terms()).toMatchObject({ indexedRows: paragraphs, unindexedRows: 0 }), {
      timeout: 15_000,
      interval: 100,
    });
  }, 60_000);
});
