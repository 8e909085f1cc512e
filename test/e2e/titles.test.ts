import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

// A web page's <title> and a Markdown file's heading or front matter title the resource (issue 16).
let d: TestDaemon;
let kbid: string;
let dir: string;
let web: Server;
let base: string;

const PAGE = `<!doctype html><html><head><title>Tulip Growing Guide</title></head><body>
<h1>Tulip Growing Guide</h1><p>Plant the bulbs in autumn, a hand deep, pointed end up.</p>
<p>Water them once after planting.</p></body></html>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbox-titles-"));
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "titles" } })).uuid;
  web = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE);
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await d?.stop();
  await new Promise((r) => web?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** `kbox add --wait` of one input: its resource id. */
async function add(input: string): Promise<string> {
  const r = await d.cli(["add", input, "--kb", "titles", "--wait"]);
  expect(r.code, r.stderr).toBe(0);
  const [rid, status] = r.stdout.trim().split("\t");
  expect(status).toBe("PROCESSED");
  return rid;
}

async function resource(rid: string): Promise<{ title: string; text: string }> {
  const res = (await d.client.call(api.getResource.byId, {
    params: { kbid, rid },
    query: { show: ["basic", "extracted"] },
  })) as any;
  const field = res.data.links?.link ?? res.data.files?.file;
  return { title: res.title, text: field.extracted.text.text };
}

/** The resource is found by its title's words, in its title field. */
async function foundByTitle(rid: string, words: string): Promise<void> {
  const r = await d.client.call(find.find, {
    params: { kbid },
    body: { query: words, features: ["keyword"], fields: ["a/title"] },
  });
  expect(r.best_matches).toContainEqual(expect.stringMatching(new RegExp(`^${rid}/a/title/`)));
  expect(Object.values(r.resources[rid].fields["/a/title"].paragraphs).map((p) => p.text)).toEqual([words]);
}

describe("resource titles from the content", () => {
  it("a web page's <title> titles a link resource added by URL; its repeating <h1> is not a paragraph", async () => {
    const rid = await add(`${base}/guide.html`);
    const r = await resource(rid);
    expect(r.title).toBe("Tulip Growing Guide");
    expect(r.text).toContain("Plant the bulbs in autumn");
    expect(r.text).not.toContain("Tulip Growing Guide");
    await foundByTitle(rid, "Tulip Growing Guide");
  });

  it("an HTML file's <title> replaces its file name", async () => {
    const f = join(dir, "orchids.html");
    writeFileSync(f, "<html><head><title>Orchid Care Handbook</title></head><body><p>Mist the leaves daily.</p></body></html>");
    const rid = await add(f);
    const r = await resource(rid);
    expect(r.title).toBe("Orchid Care Handbook");
    expect(r.text).toBe("Mist the leaves daily.");
    await foundByTitle(rid, "Orchid Care Handbook");
  });

  it("a Markdown file's first heading is its title, not a paragraph of its own", async () => {
    const f = join(dir, "cactus.md");
    writeFileSync(f, "# Cactus Watering Schedule\n\nWater every two weeks in summer.\n\n## Winter\n\nHardly at all.\n");
    const rid = await add(f);
    const r = await resource(rid);
    expect(r.title).toBe("Cactus Watering Schedule");
    expect(r.text).not.toContain("Cactus Watering Schedule");
    expect(r.text).toContain("Water every two weeks in summer.");
    expect(r.text).toContain("Winter");
    await foundByTitle(rid, "Cactus Watering Schedule");
  });

  it("a Markdown file's front-matter title wins; front matter and the repeated heading are not text", async () => {
    const f = join(dir, "ferns.md");
    writeFileSync(
      f,
      '---\ntitle: "Fern Propagation Notes"\ndate: 2024-05-01\n---\n\n# Fern Propagation Notes\n\nSow the spores on moist peat.\n',
    );
    const rid = await add(f);
    const r = await resource(rid);
    expect(r.title).toBe("Fern Propagation Notes");
    expect(r.text).toBe("Sow the spores on moist peat.");
    await foundByTitle(rid, "Fern Propagation Notes");
  });

  it("processing writes the resource record and the title field's record once each, and extracts the title once: the title comes with the statuses", async () => {
    const { store } = await d.daemon.services.kbs.open(kbid);
    const resourcePuts = vi.spyOn(store.resources, "put");
    const fieldPuts = vi.spyOn(store.fields, "put");
    // The queue's extraction (a private member: the runs read it at each batch).
    const queue = d.daemon.services.processing as unknown as {
      extract: (doc: { rid: string; id: string; value: unknown }) => unknown;
    };
    const extract = queue.extract;
    const extracted: unknown[] = [];
    queue.extract = (doc, ...rest: unknown[]) => {
      if (doc.id === "title") extracted.push(doc.value);
      return (extract as (...a: unknown[]) => unknown)(doc, ...rest);
    };
    try {
      const f = join(dir, "lilies.md");
      writeFileSync(f, "# Lily Pond Almanac\n\nLilies float on still water.\n");
      const rid = await add(f);
      const puts = resourcePuts.mock.calls.filter(([id]) => id === rid).map(([, doc]) => doc);
      const titlePuts = fieldPuts.mock.calls
        .filter(([, group, doc]) => group === rid && doc.id === "title")
        .map(([, , doc]) => doc);
      // Created (titled by its file name, PENDING), then processed: the new title, its field and the statuses at once.
      expect(puts.map((p) => [p.title, p.metadata.status, p.fields["a/title"].status])).toEqual([
        ["lilies.md", "PENDING", "PENDING"],
        ["Lily Pond Almanac", "PROCESSED", "PROCESSED"],
      ]);
      expect(puts[1].titled_by).toBe("f/file");
      expect(puts[1].fields["a/title"].hash).not.toBe(puts[0].fields["a/title"].hash);
      expect(puts[1].fields["a/title"].added).toBe(puts[0].fields["a/title"].added);
      // The title field's record: created with the file name, then its new value with its extraction output.
      expect(titlePuts.map((t) => t.value)).toEqual(["lilies.md", "Lily Pond Almanac"]);
      expect(titlePuts[1].extracted_blob).toBeTruthy();
      // The title field is extracted once, with the heading's title (not first with the file name).
      expect(extracted).toEqual(["Lily Pond Almanac"]);
      await foundByTitle(rid, "Lily Pond Almanac");
    } finally {
      queue.extract = extract;
      resourcePuts.mockRestore();
      fieldPuts.mockRestore();
    }
  });

  it("never replaces a title the user gave", async () => {
    const { uuid } = await d.client.call(api.createResource, {
      params: { kbid },
      body: { title: "My bulb bookmarks", links: { link: { uri: `${base}/mine.html` } } },
    });
    const f = join(dir, "mine.md");
    writeFileSync(f, "# Heading Of Mine\n\nSome words.\n");
    const out = await d.cli(["add", f, "--kb", "titles", "--slug", "mine"]);
    expect(out.code, out.stderr).toBe(0);
    await waitIdle(d.client, kbid);
    expect((await resource(uuid)).title).toBe("My bulb bookmarks");
    // The slug travels with the upload's payload, whose title defaults to the file name: still replaced.
    const mine = await d.client.call(api.getResource.bySlug, { params: { kbid, rslug: "mine" }, query: {} });
    expect(mine.title).toBe("Heading Of Mine");
  });

  it("in a folder sync, an edited heading retitles and a moved file keeps its heading's title", async () => {
    const root = join(dir, "synced");
    mkdirSync(root);
    writeFileSync(join(root, "heron.md"), "# Heron Field Notes\n\nThe heron waits at the reeds.\n");
    const added = await d.cli(["sync", "add", root, "--kb", "titles", "--name", "notes"]);
    expect(added.code, added.stderr).toBe(0);
    const titleOf = async () => {
      const list = await d.client.call(api.listResources, { params: { kbid }, query: { size: 50 } });
      return list.resources.filter((r) => /heron/i.test(r.title)).map((r) => r.title);
    };
    for (const until = Date.now() + 20_000; !(await titleOf()).length && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 100));
    await waitIdle(d.client, kbid);
    expect(await titleOf()).toEqual(["Heron Field Notes"]);
    writeFileSync(join(root, "heron.md"), "# Grey Heron Diary\n\nThe heron waits at the reeds.\n");
    expect((await d.cli(["sync", "run", "notes", "--kb", "titles", "--wait"])).code).toBe(0);
    await waitIdle(d.client, kbid);
    expect(await titleOf()).toEqual(["Grey Heron Diary"]);
    renameSync(join(root, "heron.md"), join(root, "birds-heron.md"));
    expect((await d.cli(["sync", "run", "notes", "--kb", "titles", "--wait"])).code).toBe(0);
    await waitIdle(d.client, kbid);
    expect(await titleOf()).toEqual(["Grey Heron Diary"]);
    // Once the user titles it, an edited heading no longer does.
    const list = await d.client.call(api.listResources, { params: { kbid }, query: { size: 50 } });
    const rid = list.resources.find((r) => r.title === "Grey Heron Diary")?.id as string;
    await d.client.call(api.updateResource.byId, { params: { kbid, rid }, body: { title: "My heron" } });
    writeFileSync(join(root, "birds-heron.md"), "# Heron Diary, Second Year\n\nThe heron still waits.\n");
    expect((await d.cli(["sync", "run", "notes", "--kb", "titles", "--wait"])).code).toBe(0);
    await waitIdle(d.client, kbid);
    const edited = await d.client.call(find.find, {
      params: { kbid },
      body: { query: "heron still waits", features: ["keyword"] },
    });
    expect(Object.keys(edited.resources)).toContain(rid);
    expect(await titleOf()).toEqual(["My heron"]);
  });
});
