import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldError } from "../../src/api/common.js";
import { find } from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as models from "../../src/api/models.js";
import * as processing from "../../src/api/processing.js";
import * as api from "../../src/api/resources.js";
import * as search from "../../src/api/search.js";
import type { KboxClient } from "../../src/client/client.js";
import { removeHome, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { fakeVector } from "../helpers/fake-hub.js";

// Transient failures are retried (PENDING, backoff) until a deadline (EXPIRED); policy refusals are BLOCKED.
const FAST = { KBOX_INGEST_RETRY_DELAY: "150ms", KBOX_MODELS_AUTOPULL: "0" };
const PAGE =
  "<html><head><title>Tulips</title></head><body><main><p>A page about tulips and their colours in spring.</p></main></body></html>";

let web: Server;
let base: string;
const hits = new Map<string, number[]>();

beforeAll(async () => {
  web = createServer((req, res) => {
    const path = req.url ?? "/";
    const times = hits.get(path) ?? [];
    times.push(Date.now());
    hits.set(path, times);
    const n = times.length;
    if (path === "/flaky" && n <= 2) return void res.writeHead(503, n === 1 ? { "retry-after": "1" } : {}).end("busy");
    if (path === "/down") return void res.writeHead(503).end("down for maintenance");
    if (path === "/missing") return void res.writeHead(404).end("no such page");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  web.closeAllConnections();
  await new Promise((r) => web.close(r));
});

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Status = processing.ProcessingItem;
async function itemOf(client: KboxClient, kbid: string, rid: string): Promise<Status | undefined> {
  const st = await client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1000 } });
  return st.results.find((r) => r.resource_id === rid);
}
const settled = (client: KboxClient, kbid: string, rid: string) =>
  until(`${rid} to settle`, async () => {
    const it = await itemOf(client, kbid, rid);
    return it && it.status !== "PENDING" ? it : undefined;
  });
const addLink = async (client: KboxClient, kbid: string, uri: string) =>
  (await client.call(api.createResource, { params: { kbid }, body: { title: "link", links: { link: { uri } } } })).uuid;
const linkError = (it: Status) => it.fields.find((f) => f.field === "u/link")?.error as FieldError;

describe("transient link failures", () => {
  let d: TestDaemon;
  let kbid: string;
  beforeAll(async () => {
    d = await startTestDaemon({ env: FAST });
    kbid = (await d.client.call(kbs.createKb, { body: { slug: "retry" } })).uuid;
  });
  afterAll(() => d.stop());

  it("a link answering 503 twice then 200 ends PROCESSED; the retry shows in processing-status; Retry-After is honoured", async () => {
    const rid = await addLink(d.client, kbid, `${base}/flaky`);
    const retrying = await until("a retry", async () => {
      const it = await itemOf(d.client, kbid, rid);
      return it?.fields.find((f) => f.retry) ? it : undefined;
    });
    expect(retrying).toMatchObject({ status: "PENDING", scheduled: true, failed: false });
    const f = retrying.fields.find((x) => x.field === "u/link");
    expect(f?.retry?.attempts).toBeGreaterThanOrEqual(1);
    expect(f?.error).toMatchObject({ code_str: "FETCH_FAILED", severity: "WARNING" });
    const done = await settled(d.client, kbid, rid);
    expect(done.status).toBe("PROCESSED");
    expect(done.fields.every((x) => !x.error && !x.retry)).toBe(true);
    const t = hits.get("/flaky") ?? [];
    expect(t).toHaveLength(3);
    expect(t[1] - t[0]).toBeGreaterThanOrEqual(900); // Retry-After: 1 beats the 150 ms backoff
    expect(t[2] - t[1]).toBeLessThan(900); // then the backoff (300 ms)
    const res = (await d.client.call(api.getResource.byId, {
      params: { kbid, rid },
      query: { show: ["extracted"] },
    })) as unknown as {
      data: { links: { link: { extracted: { text: { text: string } } } } };
    };
    expect(res.data.links.link.extracted.text.text).toContain("tulips");
  });

  it("a 404 link ends ERROR at once, without retries", async () => {
    const rid = await addLink(d.client, kbid, `${base}/missing`);
    const it = await settled(d.client, kbid, rid);
    expect(it.status).toBe("ERROR");
    expect(linkError(it)).toMatchObject({
      code_str: "FETCH_FAILED",
      severity: "ERROR",
      body: expect.stringContaining("HTTP 404"),
    });
    expect(hits.get("/missing")).toHaveLength(1);
  });
});

describe("the retry deadline", () => {
  it("a link that keeps answering 503 ends EXPIRED; the deadline counts from the first failure across a restart", async () => {
    const home = tempHome();
    const env = { ...FAST, KBOX_INGEST_RETRY_DEADLINE: "3s" };
    try {
      let d = await startTestDaemon({ home, keepHome: true, env });
      const kbid = (await d.client.call(kbs.createKb, { body: { slug: "expiry" } })).uuid;
      const rid = await addLink(d.client, kbid, `${base}/down`);
      const first = await until(
        "the first failure",
        async () => (await itemOf(d.client, kbid, rid))?.fields.find((f) => f.retry)?.retry,
      );
      await d.stop();
      // Restart after the deadline has passed: the first attempt after the restart must expire the field.
      const wait = Date.parse(first.first_failure) + 3000 + 200 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const before = hits.get("/down")?.length ?? 0;
      d = await startTestDaemon({ home, keepHome: true, env });
      try {
        const it = await settled(d.client, kbid, rid);
        expect(it).toMatchObject({ status: "EXPIRED", failed: true, completed: true });
        const e = linkError(it);
        expect(e).toMatchObject({ code_str: "EXPIRED", severity: "ERROR", code: 2 });
        expect(e.body).toContain(first.first_failure);
        expect(e.body).toContain("HTTP 503");
        expect(hits.get("/down")?.length).toBe(before + 1);
        const st = await d.client.call(processing.processingStatus, { params: { kbid }, query: { status: ["EXPIRED"] } });
        expect(st.totals.EXPIRED).toBe(1);
        expect(st.results.map((r) => r.resource_id)).toEqual([rid]);
        const cat = await d.client.call(search.catalog, { params: { kbid }, body: { with_status: "EXPIRED" } });
        expect(Object.keys(cat.resources ?? {})).toEqual([rid]);
      } finally {
        await d.stop();
      }
    } finally {
      removeHome(home);
    }
  });
});

describe("transient embedding failures", () => {
  it("an OpenAI-compatible embeddings endpoint that is down, then busy, then up: the resource ends PROCESSED", async () => {
    // A port that nothing listens on yet: the endpoint is unreachable until the stand-in starts.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const seen: number[] = [];
    const emb = createServer(async (req, res) => {
      let raw = "";
      for await (const c of req) raw += c;
      seen.push(Date.now());
      if (seen.length === 1) return void res.writeHead(503, { "retry-after": "0" }).end('{"error":"loading"}');
      const input: string[] = JSON.parse(raw).input;
      const data = input.map((t, index) => ({ object: "embedding", index, embedding: fakeVector(t, 12) }));
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data, model: "m", usage: {} }));
    });
    const d = await startTestDaemon({ env: FAST });
    try {
      await d.client.call(models.addModel, {
        body: { name: "openai:flaky", url: `http://127.0.0.1:${port}/v1`, model: "m", dim: 12, check: false },
      });
      const kbid = (
        await d.client.call(kbs.createKb, {
          body: { slug: "emb", learning_configuration: { semantic_models: ["openai:flaky"] } },
        })
      ).uuid;
      const rid = (
        await d.client.call(api.createResource, {
          params: { kbid },
          body: { title: "Notes", texts: { t: { body: "Embeddings come back after the outage." } } },
        })
      ).uuid;
      const pending = await until("an embedding retry", async () => {
        const it = await itemOf(d.client, kbid, rid);
        return it?.fields.some((f) => f.retry) ? it : undefined;
      });
      expect(pending.status).toBe("PENDING");
      expect(pending.fields.find((f) => f.retry)?.error).toMatchObject({
        code_str: "EMBEDDING_FAILED",
        body: expect.stringContaining("cannot reach"),
      });
      await new Promise<void>((r) => emb.listen(port, "127.0.0.1", r));
      const it = await settled(d.client, kbid, rid);
      expect(it.status).toBe("PROCESSED");
      expect(seen.length).toBeGreaterThanOrEqual(2); // the 503 was retried too
      const found = await d.client.call(find, { params: { kbid }, body: { query: "outage", features: ["semantic"] } } as never);
      expect(JSON.stringify(found)).toContain(rid);
    } finally {
      await d.stop();
      emb.closeAllConnections();
      await new Promise((r) => emb.close(r));
    }
  });
});

describe("blocked links", () => {
  it("a link to a private address is BLOCKED when the daemon does not allow them; reprocess after allowing it processes it", async () => {
    const home = tempHome();
    try {
      let d = await startTestDaemon({ home, keepHome: true, env: { ...FAST, KBOX_LINKS_ALLOW_PRIVATE: "0" } });
      await d.client.call(kbs.createKb, { body: { slug: "guard" } });
      const before = hits.get("/guarded")?.length ?? 0;
      // `kbox add --wait` ends on BLOCKED with a failure exit code.
      const r = await d.cli(["add", `${base}/guarded`, "--kb", "guard", "--wait"]);
      expect(r.code).toBe(1);
      const [rid, status] = r.stdout.trim().split("\t");
      expect(status).toBe("BLOCKED");
      expect(r.stdout).toContain("127.0.0.1 is a private address; the daemon's owner can allow it with KBOX_FETCH_ALLOW");
      // A name is checked by the address it resolves to.
      const kbid = (await d.client.call(kbs.getKbBySlug, { params: { slug: "guard" } })).uuid;
      const byName = await addLink(d.client, kbid, `${base.replace("127.0.0.1", "localhost")}/guarded`);
      const it = await settled(d.client, kbid, byName);
      expect(it.status).toBe("BLOCKED");
      expect(linkError(it)).toMatchObject({
        code_str: "BLOCKED",
        severity: "ERROR",
        body: expect.stringMatching(/^blocked: localhost \(.+\) is a private address/),
      });
      expect(hits.get("/guarded")?.length ?? 0).toBe(before);
      const shown = await d.cli(["resource", "status", rid, "--kb", "guard"]);
      expect(shown.stdout).toMatch(/links\/link\tBLOCKED\tBLOCKED: blocked: 127\.0\.0\.1/);
      await d.stop();

      d = await startTestDaemon({ home, keepHome: true, env: { ...FAST, KBOX_LINKS_ALLOW_PRIVATE: "1" } });
      try {
        await d.client.call(api.reprocessResource.byId, { params: { kbid, rid } });
        const done = await settled(d.client, kbid, rid);
        expect(done.status).toBe("PROCESSED");
        expect(done.fields.every((f) => !f.error)).toBe(true);
      } finally {
        await d.stop();
      }
    } finally {
      removeHome(home);
    }
  });
});

describe("unexpected failures", () => {
  it("a run that keeps failing for a reason not the document's is tried three times, then ERROR; reprocess once mended processes it", async () => {
    const d = await startTestDaemon({ env: FAST });
    try {
      const kbid = (await d.client.call(kbs.createKb, { body: { slug: "broken" } })).uuid;
      // Break the box's blob packs: a file where their folder goes (not a full disk, which waits).
      const packs = join((await d.daemon.services.kbs.open(kbid)).store.dir, "blobs", "packs");
      rmSync(packs, { recursive: true, force: true });
      mkdirSync(join(packs, ".."), { recursive: true });
      writeFileSync(packs, "not a folder");
      const rid = (
        await d.client.call(api.createResource, {
          params: { kbid },
          body: { title: "Gulls", texts: { body: { body: "Gulls follow the trawlers home." } } },
        })
      ).uuid;
      // Nothing stays PENDING forever: the third failure records ERROR on the fields.
      const failed = await settled(d.client, kbid, rid);
      expect(failed.status).toBe("ERROR");
      const body = failed.fields.find((f) => f.field === "t/body")?.error as FieldError;
      expect(body).toMatchObject({ code_str: "PROCESSING_FAILED", severity: "ERROR" });
      expect(body.body).toMatch(/^Processing failed: /);
      const log = readFileSync(join(d.home, "logs", "kboxd.log"), "utf8");
      expect(log).toContain(`ingest: ${rid} failed (attempt 3)`);
      expect(log).not.toContain(`ingest: ${rid} failed (attempt 4)`);
      // Mended, a reprocess goes through.
      rmSync(packs, { force: true });
      await d.client.call(api.reprocessResource.byId, { params: { kbid, rid } });
      await until("the reprocess", async () => ((await itemOf(d.client, kbid, rid))?.status === "PROCESSED" ? true : undefined));
    } finally {
      await d.stop();
    }
  });
});
