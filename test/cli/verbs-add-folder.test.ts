/** `kbox add <folder>`: one add-folder request to the local daemon, per-file uploads to a remote one (fake transport). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as addFolder from "../../src/api/add-folder.js";
import * as kbs from "../../src/api/kbs.js";
import * as uploads from "../../src/api/uploads.js";
import { FakeDaemon } from "../helpers/fake-daemon.js";
import { KB_UUID, kbRecord, RID, RID2 } from "../helpers/wire-fixtures.js";

let fake: FakeDaemon;
let dir: string;

beforeEach(() => {
  fake = new FakeDaemon().on(kbs.getKbBySlug, { json: kbRecord("notes") });
  dir = join(fake.home, "docs");
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "notes.md"), "# Notes\n\nThe fox jumps.\n");
  writeFileSync(join(dir, "sub", "b.txt"), "Beta.\n");
  writeFileSync(join(dir, "sub", "c.txt"), "Beta.\n");
});
afterEach(() => fake.close());

describe("kbox add <folder>", () => {
  it("hands the local daemon the folder and its walked files in one request; rows in walk order", async () => {
    fake.on(addFolder.addFolder, {
      ndjson: [
        { path: "sub/b.txt", resource: RID2, status: "PENDING" },
        { path: "notes.md", resource: RID, status: "PENDING" },
        { path: "sub/c.txt", resource: RID2, status: "DUPLICATE", error: `already in the knowledge box as ${RID2}` },
      ],
    });
    const r = await fake.run(
      ["add", "docs", "--kb", "notes", "--label", "topic/q3", "--hidden", "--split-strategy", "s1", "--json"],
      { env: {} },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      results: [
        { source: join(dir, "notes.md"), resource: RID, status: "PENDING" },
        { source: join(dir, "sub", "b.txt"), resource: RID2, status: "PENDING" },
        {
          source: join(dir, "sub", "c.txt"),
          resource: RID2,
          status: "DUPLICATE",
          error: `already in the knowledge box as ${RID2}`,
        },
      ],
    });
    expect(fake.calls()).toEqual(["GET /api/v1/kb/s/notes", `POST /api/v1/kb/${KB_UUID}/add-folder`]);
    expect(fake.last(addFolder.addFolder)?.json).toEqual({
      root: dir,
      files: ["notes.md", "sub/b.txt", "sub/c.txt"],
      labels: [{ labelset: "topic", label: "q3" }],
      hidden: true,
      split_strategy: "s1",
    });
  });

  it("fails every file with the daemon's reason when it refuses the folder (exit 1)", async () => {
    fake.on(addFolder.addFolder, {
      status: 403,
      json: { detail: "the daemon reads a folder under the rules of a folder sync: no" },
    });
    const r = await fake.run(["add", "docs", "--kb", "notes"]);
    expect(r.code).toBe(1);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(row).toEqual(["-", "FAILED", row[2], "the daemon reads a folder under the rules of a folder sync: no"]);
  });

  it("uploads each file to a remote zone (it cannot read this machine's folders)", async () => {
    let n = 0;
    fake
      .on(uploads.tusCreate.kb, () => ({
        status: 201,
        headers: { location: `/kb/${KB_UUID}/tusupload/${String(++n).padStart(32, "0")}` },
      }))
      .on(uploads.tusPatch.kb, (req) => ({
        status: 204,
        headers: {
          "upload-offset": String(req.raw.length),
          "tus-upload-finished": "1",
          "ndb-resource": `/kb/${KB_UUID}/resource/${RID}`,
          "ndb-field": `/kb/${KB_UUID}/resource/${RID}/file/file`,
        },
      }));
    const r = await fake.run(["add", "docs", "--kb", "notes", "--json"], {
      env: { KBOX_URL: "http://127.0.0.1:9", KBOX_API_KEY: "k" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).results).toHaveLength(3);
    expect(fake.calls().filter((c) => c.endsWith("/add-folder"))).toEqual([]);
    expect(fake.calls().filter((c) => c.endsWith("/tusupload"))).toHaveLength(3);
    const origins = fake.requests
      .filter((q) => q.route === uploads.tusCreate.kb)
      .map((q) => (q.json as { origin: unknown }).origin);
    expect(origins).toEqual(
      expect.arrayContaining([
        { filename: "notes.md", path: "/docs/notes.md" },
        { filename: "b.txt", path: "/docs/sub/b.txt" },
        { filename: "c.txt", path: "/docs/sub/c.txt" },
      ]),
    );
  });
});
