import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ExtractionError, extractLinkField } from "../../../../daemon/ingest/extract/index.js";
import { splitParagraphs } from "../../../../daemon/ingest/split.js";
import { buildPdf } from "../../../fixtures/documents.js";

const BODY = "The river flows through the old town and past the library. ".repeat(8).trim();
const ARTICLE = `<!doctype html><html lang="en-GB"><head><title>River Notes</title>
<meta name="description" content="Notes about the river."></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
<article><h1>The river</h1><p>${BODY}</p><p>The second paragraph describes the bridges over the water in some detail.</p></article>
<footer>Copyright footer text</footer></body></html>`;
const SELECTORS = `<html><head><title>Sel</title></head><body><div class="menu">Menu entries</div>
<div id="main"><p class="keep">Kept by the selector.</p><p>Also inside main.</p></div>
<section><p>Outside of main.</p></section></body></html>`;

let server: Server;
let base: string;
let dir: string;
const seen = new Map<string, IncomingHttpHeaders>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kbox-link-"));
  await buildPdf(join(dir, "doc.pdf"), ["PDF behind a link, page one.", "Page two of the linked PDF."]);
  const pdf = await readFile(join(dir, "doc.pdf"));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.set(path, req.headers);
    const html = (s: string) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(s);
    };
    switch (path) {
      case "/article":
        return html(ARTICLE);
      case "/selectors":
        return html(SELECTORS);
      case "/r1":
        res.writeHead(302, { location: "/r2" });
        return res.end();
      case "/r2":
        res.writeHead(301, { location: `${base}/article` });
        return res.end();
      case "/loop":
        res.writeHead(302, { location: "/loop" });
        return res.end();
      case "/to-other-host":
        res.writeHead(302, { location: base.replace("127.0.0.1", "localhost") + "/echo" });
        return res.end();
      case "/echo":
        return html(`<html><body><p>Echo page with enough words to be indexed as text.</p></body></html>`);
      case "/slow":
        setTimeout(() => html("<p>late</p>"), 3000).unref();
        return;
      case "/big": {
        res.writeHead(200, { "content-type": "text/html" });
        const chunk = `<p>${"x".repeat(1023)}</p>`;
        let sent = 0;
        const pump = () => {
          while (sent < 2048) {
            sent++;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        return pump();
      }
      case "/declared-big":
        res.writeHead(200, { "content-type": "text/html", "content-length": String(10 * 1024 * 1024) });
        return res.end();
      case "/doc.pdf":
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end(pdf);
      default:
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not found");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

async function linkError(p: Promise<unknown>): Promise<ExtractionError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

describe("extractLinkField", () => {
  test("main content only, with title, description and language in metadata", async () => {
    const ex = await extractLinkField({ uri: `${base}/article` });
    expect(ex.metadata).toMatchObject({
      title: "River Notes",
      description: "Notes about the river.",
      language: "en",
      status: 200,
    });
    const texts = splitParagraphs(ex).map((p) => p.text);
    expect(texts).toContain(BODY);
    expect(texts).toContain("The second paragraph describes the bridges over the water in some detail.");
    expect(ex.text).not.toContain("Copyright footer");
    expect(ex.text).not.toContain("About us");
  });

  test("headers and cookies are sent; cookies never go to another host on a redirect", async () => {
    await extractLinkField({
      uri: `${base}/article`,
      headers: { "X-Token": "t0k", "User-Agent": "custom-agent" },
      cookies: { session: "abc", theme: "dark" },
    });
    const h = seen.get("/article");
    expect(h?.["x-token"]).toBe("t0k");
    expect(h?.["user-agent"]).toBe("custom-agent");
    expect(h?.cookie).toBe("session=abc; theme=dark");

    seen.delete("/echo");
    await extractLinkField({ uri: `${base}/to-other-host`, cookies: { session: "abc" } });
    expect(seen.get("/to-other-host")?.cookie).toBe("session=abc");
    expect(seen.get("/echo")).toBeDefined();
    expect(seen.get("/echo")?.cookie).toBeUndefined();
  });

  test("redirects are followed (bounded); the final URL is kept", async () => {
    const ex = await extractLinkField({ uri: `${base}/r1` });
    expect(ex.metadata).toMatchObject({ url: `${base}/article`, uri: `${base}/r1`, title: "River Notes" });
    const err = await linkError(extractLinkField({ uri: `${base}/loop` }, { maxRedirects: 3 }));
    expect(err.code_str).toBe("FETCH_FAILED");
    expect(err.message).toMatch(/redirects/);
  });

  test("timeout, size limits and HTTP errors end in ExtractionError", async () => {
    const t0 = Date.now();
    const slow = await linkError(extractLinkField({ uri: `${base}/slow` }, { timeoutMs: 300 }));
    expect(slow.code_str).toBe("FETCH_TIMEOUT");
    expect(Date.now() - t0).toBeLessThan(2500);
    const big = await linkError(extractLinkField({ uri: `${base}/big` }, { maxBytes: 64 * 1024 }));
    expect(big.code_str).toBe("TOO_LARGE");
    const declared = await linkError(extractLinkField({ uri: `${base}/declared-big` }, { maxBytes: 1024 * 1024 }));
    expect(declared.code_str).toBe("TOO_LARGE");
    const missing = await linkError(extractLinkField({ uri: `${base}/missing` }));
    expect(missing.message).toContain("HTTP 404");
    const refused = await linkError(extractLinkField({ uri: "http://127.0.0.1:1/" }));
    expect(refused.code_str).toBe("FETCH_FAILED");
    const scheme = await linkError(extractLinkField({ uri: "file:///etc/passwd" }));
    expect(scheme.code_str).toBe("INVALID_INPUT");
  });

  test("css_selector and xpath restrict the indexed part", async () => {
    const css = await extractLinkField({ uri: `${base}/selectors`, css_selector: "#main" });
    expect(splitParagraphs(css).map((p) => p.text)).toEqual(["Kept by the selector.", "Also inside main."]);
    const xp = await extractLinkField({ uri: `${base}/selectors`, xpath: "//div[@id='main']/p[@class='keep'] | //section/p" });
    expect(splitParagraphs(xp).map((p) => p.text)).toEqual(["Kept by the selector.", "Outside of main."]);
    const none = await linkError(extractLinkField({ uri: `${base}/selectors`, css_selector: ".nothing" }));
    expect(none.code_str).toBe("SELECTOR_NO_MATCH");
    const bad = await linkError(extractLinkField({ uri: `${base}/selectors`, xpath: "//[" }));
    expect(bad.code_str).toBe("INVALID_INPUT");
  });

  test("a non-HTML link (PDF) goes through file extraction, pages kept", async () => {
    const ex = await extractLinkField({ uri: `${base}/doc.pdf` });
    expect(ex.metadata).toMatchObject({ mime_type: "application/pdf", page_count: 2 });
    expect(splitParagraphs(ex).map((p) => [p.text, p.page_number])).toEqual([
      ["PDF behind a link, page one.", 1],
      ["Page two of the linked PDF.", 2],
    ]);
  });

  test("the caller's signal cancels a fetch", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await linkError(extractLinkField({ uri: `${base}/slow` }, { signal: ac.signal, timeoutMs: 5000 }));
    expect(err.message).toMatch(/cancel/);
  });
});
