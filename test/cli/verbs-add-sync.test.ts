/** add, resource show and sync list run in-process against a fake transport. */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import * as uploads from "../../src/api/uploads.js";
import { FakeDaemon } from "../helpers/fake-daemon.js";
import { KB_UUID, kbRecord, RID, RID2, syncConfig } from "../helpers/wire-fixtures.js";

const NOTES = "# Notes\n\nThe fox jumps.\n";
let fake: FakeDaemon;
let dir: string;

beforeEach(() => {
  fake = new FakeDaemon().on(kbs.getKbBySlug, { json: kbRecord("notes") });
  dir = join(fake.home, "docs");
  mkdirSync(dir);
  writeFileSync(join(dir, "notes.md"), NOTES);
});
afterEach(() => fake.close());

describe("kbox add", () => {
  it("uploads a small file directly and creates a link resource for a URL; TSV rows in input order", async () => {
    fake
      .on(uploads.upload.kb, { status: 201, json: { seqid: 1, uuid: RID, field_id: "file" } })
      .on(resources.createResource, { status: 201, json: { uuid: RID2, seqid: 2 } });
    const r = await fake.run(["add", "docs/notes.md", "https://example.com/page", "--kb", "notes", "--quiet"], {
      env: { KBOX_KB: "ignored-when---kb-is-given" },
    });
    // `--kb` wins over KBOX_KB; inputs are resolved against the working directory the IO names.
    expect(r).toEqual({
      code: 0,
      stderr: "",
      stdout: `${RID}\tPENDING\tdocs/notes.md\n${RID2}\tPENDING\thttps://example.com/page\n`,
    });
    const up = fake.last(uploads.upload.kb);
    expect(up?.params).toEqual({ kbid: KB_UUID });
    expect(up?.headers).toMatchObject({
      "content-type": "text/markdown",
      "x-filename": "notes.md",
      "x-md5": createHash("md5").update(NOTES).digest("hex"),
    });
    expect(up?.raw.toString()).toBe(NOTES);
    expect(fake.last(resources.createResource)?.json).toEqual({
      title: "https://example.com/page",
      links: { link: { uri: "https://example.com/page" } },
      origin: { url: "https://example.com/page" },
    });
  });

  it("sends a labelled file by TUS with its payload, and forgets the finished upload", async () => {
    fake
      .on(uploads.tusCreate.kb, { status: 201, headers: { location: `/kb/${KB_UUID}/tusupload/${"ab".repeat(16)}` } })
      .on(uploads.tusPatch.kb, (req) => ({
        status: 204,
        headers: {
          "upload-offset": String(req.raw.length),
          "tus-upload-finished": "1",
          "ndb-resource": `/kb/${KB_UUID}/resource/${RID}`,
          "ndb-field": `/kb/${KB_UUID}/resource/${RID}/file/file`,
          "ndb-seq": "3",
        },
      }));
    const r = await fake.run(["add", join(dir, "notes.md"), "--kb", "notes", "--label", "topic/q3", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ results: [{ source: join(dir, "notes.md"), resource: RID, status: "PENDING" }] });
    const start = fake.last(uploads.tusCreate.kb);
    expect(start?.json).toEqual({
      usermetadata: { classifications: [{ labelset: "topic", label: "q3" }] },
      origin: { filename: "notes.md" },
    });
    expect(start?.headers["upload-length"]).toBe(String(NOTES.length));
    expect(start?.headers["upload-metadata"]).toContain(`filename ${Buffer.from("notes.md").toString("base64")}`);
    const chunk = fake.last(uploads.tusPatch.kb);
    expect(chunk?.params.upload_id).toBe("ab".repeat(16));
    expect(chunk?.headers["upload-offset"]).toBe("0");
    expect(chunk?.raw.toString()).toBe(NOTES);
    expect(JSON.parse(readFileSync(join(fake.home, "tus-uploads.json"), "utf8"))).toEqual({});
  });

  it("exits 5 when some inputs failed: a missing path FAILED, a duplicate reported as such", async () => {
    fake.on(uploads.upload.kb, { status: 409, json: { detail: "duplicate" } });
    const r = await fake.run(["add", "docs/notes.md", "docs/missing.pdf", "--kb", "notes"], { tty: true });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe(
      [
        "RESOURCE  STATUS     SOURCE            ERROR",
        "-         DUPLICATE  docs/notes.md     already in the knowledge box",
        "-         FAILED     docs/missing.pdf  no such file or directory",
        "",
      ].join("\n"),
    );
    // The upload bar goes to stderr on a terminal, never to stdout.
    expect(r.stderr).toMatch(/\[#+\] 100% 1\/1 files {2}[\d.]+ files\/s {2}eta 0s\n/);
    expect(fake.calls()).toEqual(["GET /api/v1/kb/s/notes", `POST /api/v1/kb/${KB_UUID}/upload`]);
  });
});

describe("kbox resource show", () => {
  it("asks for the default parts by slug and prints key/value lines piped, aligned on a TTY", async () => {
    const res = {
      id: RID,
      slug: "fox",
      title: "Fox",
      created: "2025-01-01T00:00:00Z",
      metadata: { status: "PROCESSED", language: "en" },
      usermetadata: { classifications: [{ labelset: "topic", label: "q3" }] },
      origin: { url: "https://example.com/fox" },
    };
    fake.on(resources.getResource.bySlug, { json: res });
    const piped = await fake.run(["resource", "show", "fox", "--kb", "notes"]);
    expect(piped).toEqual({
      code: 0,
      stderr: "",
      stdout: `id\t${RID}\nslug\tfox\ntitle\tFox\nstatus\tPROCESSED\nlanguage\ten\ncreated\t2025-01-01T00:00:00Z\nlabels\ttopic/q3\norigin\t{"url":"https://example.com/fox"}\n`,
    });
    const sent = fake.last(resources.getResource.bySlug);
    expect(sent?.params).toEqual({ kbid: KB_UUID, rslug: "fox" });
    expect(sent?.query.getAll("show")).toEqual(["basic", "origin", "errors"]);
    const tty = await fake.run(["resource", "show", "fox", "--kb", "notes", "--show", "values"], { tty: true });
    expect(tty.stdout.split("\n")[0]).toBe(`id        ${RID}`);
    expect(fake.last(resources.getResource.bySlug)?.query.getAll("show")).toEqual(["values"]);
  });

  it("goes by id for a 32-hex reference", async () => {
    fake.on(resources.getResource.byId, { json: { id: RID, title: "Fox" } });
    const r = await fake.run(["resource", "show", RID, "--kb", "notes", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual({ id: RID, title: "Fox" });
    expect(fake.calls().at(-1)).toBe(`GET /api/v1/kb/${KB_UUID}/resource/${RID}`);
  });
});

describe("kbox sync list", () => {
  it("lists configurations as a table on a TTY, TSV piped, and the wire response with --json", async () => {
    const configs = [
      syncConfig("c1", "docs", "local_folder", "/home/me/docs"),
      syncConfig("c2", "site", "sitemap", "https://example.com/sitemap.xml"),
    ];
    fake.on(sync.listConfigs, { json: configs });
    const piped = await fake.run(["sync", "list"], { env: { KBOX_KB: "notes" } });
    expect(piped).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "c1\tdocs\tfolder /home/me/docs\t\tnever\nc2\tsite\tsitemap https://example.com/sitemap.xml\t60m\t2025-01-02T03:04:05Z\n",
    });
    const tty = await fake.run(["sync", "ls", "--kb", "notes"], { tty: true });
    const w = "sitemap https://example.com/sitemap.xml".length;
    expect(tty.stdout).toBe(
      [
        `ID  NAME  ${"SOURCE".padEnd(w)}  EVERY  LAST RUN`,
        `c1  docs  ${"folder /home/me/docs".padEnd(w)}         never`,
        `c2  site  ${"sitemap https://example.com/sitemap.xml".padEnd(w)}  60m    2025-01-02T03:04:05Z`,
        "",
      ].join("\n"),
    );
    const json = await fake.run(["sync", "list", "--kb", "notes", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(configs);
    expect(fake.calls().filter((c) => c.includes("sync_configs"))).toHaveLength(3);
  });
});
