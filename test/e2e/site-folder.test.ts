import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { answerOf, ask } from "../helpers/ask.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

/** A book built by a static site generator (mdBook's layout): pages, a sidebar, assets and a search index. */
const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title} - Harbour Book</title>
<link rel="stylesheet" href="css/general.css"><script src="searchindex.js"></script></head><body>
<nav id="sidebar" class="sidebar"><ol class="chapter"><li><a href="index.html">Introduction</a></li><li><a href="tides.html">Tides and moorings</a></li></ol></nav>
<div id="page-wrapper"><main><h1>${title}</h1>${body}</main>
<nav class="nav-wrapper"><a rel="next" href="tides.html">Next chapter</a></nav></div></body></html>`;

let d: TestDaemon;
let kbid: string;
let root: string;

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "site" } })).uuid;
  root = mkdtempSync(join(tmpdir(), "kbox-site-"));
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put("book/index.html", page("Introduction", "<p>The harbour book explains how to moor a boat safely.</p>"));
  put(
    "book/tides.html",
    page("Tides and moorings", "<p>Moor the boat with two spring lines when the tide range exceeds 3 metres.</p>"),
  );
  put(
    "book/searchindex.js",
    `Object.assign(window.search, {"doc_urls":["tides.html"],"index":{"documentStore":{"docs":{"0":{"body":"Moor the boat with two spring lines when the tide range exceeds 3 metres.\\\\n"}}}}});`,
  );
  put("book/css/general.css", ".sidebar { width: 300px; } /* moor the boat */");
  put("book/FontAwesome/fonts/fontawesome-webfont.woff2", "wOF2 binary font");
  put("book/book.js", "function mooring() { return 'moor the boat'; }");
  put("book/elasticlunr.min.js", "!function(){ /* search */ }()");
});

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("a folder of HTML docs built by a static site generator", () => {
  it("kbox add indexes the pages, not the stylesheets, scripts, fonts or search index; --include takes one back", async () => {
    const r = await d.cli(["add", join(root, "book"), "--kb", "site", "--wait", "--json"]);
    expect(r.code).toBe(0);
    const added = (JSON.parse(r.stdout).results as { source: string }[]).map((x) => x.source.slice(root.length)).sort();
    expect(added).toEqual(["/book/index.html", "/book/tides.html"]);
    const js = await d.cli(["add", join(root, "book"), "--kb", "site", "--include", "book.js", "--json"]);
    expect((JSON.parse(js.stdout).results as { source: string }[]).map((x) => x.source.slice(root.length))).toEqual([
      "/book/book.js",
    ]);
    const none = await d.cli(["add", join(root, "book"), "--kb", "site", "--exclude", "*.html", "--json"]);
    expect(JSON.parse(none.stdout).results).toEqual([]);
  });

  it("answers from the page, without the sidebar, and not from the search index", async () => {
    await waitIdle(d.client, kbid);
    const r = await ask(d, kbid, { query: "How do I moor the boat when the tide range is large?", features: ["keyword"] });
    const answer = answerOf(r.items);
    expect(answer).toContain("Moor the boat with two spring lines when the tide range exceeds 3 metres.");
    expect(answer).not.toMatch(/\\n|Tides and moorings Next chapter|Introduction Tides/);
    const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 50 } });
    for (const res of list.resources) {
      const full = (await d.client.call(resources.getResource.byId, {
        params: { kbid, rid: res.id },
        query: { show: ["extracted"] },
      })) as any;
      const text: string = full.data?.files?.file?.extracted?.text?.text ?? "";
      if (text.includes("<")) continue;
      expect(text).not.toContain("Next chapter");
    }
  });

  it("folder sync skips the same assets", async () => {
    const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
    const config = await d.client.call(sync.addConfig, {
      params: { kbid },
      body: { name: "book", external_connection_id: conn.id, sync_root_path: join(root, "book") },
    });
    const until = Date.now() + 30_000;
    let job: Awaited<ReturnType<typeof lastJob>>;
    async function lastJob() {
      return (await d.client.call(sync.listJobs, { params: { kbid, config_id: config.id }, query: { limit: 1 } })).items[0];
    }
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = await lastJob();
    } while (!(job && (job.status === "completed" || job.status === "failed")) && Date.now() < until);
    expect(job?.status).toBe("completed");
    expect(job?.stats).toMatchObject({ added: 2, failed: 0 });
  });
});
