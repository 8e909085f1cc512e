import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as resources from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// What a new user runs into in the first hour, through the real CLI and daemon.
let d: TestDaemon;
let kbid: string;
const cli = (args: string[], tty = false) => d.cli(args, { tty });

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await cli(["kb", "create", "first", "--use"])).stdout.trim();
});
afterAll(async () => d?.stop());

describe("flag values", () => {
  it.each([
    [["find", "fox", "--top-k", "abc"], /^kbox: --top-k takes a whole number from 1 to 200, not "abc"$/m],
    [["ask", "fox?", "--top-k", "0"], /^kbox: --top-k takes a whole number from 1 to 200, not "0"$/m],
    [["ask", "fox?", "--max-tokens", "lots"], /^kbox: --max-tokens takes a whole number of at least 1, not "lots"$/m],
    [["find", "fox", "--min-score", "high"], /^kbox: --min-score takes a number, not "high"$/m],
    [["find", "fox", "--page", "-1"], /^kbox: --page takes a whole number of at least 0, not "-1"$/m],
    [["catalog", "--size", "500"], /^kbox: --size takes a whole number from 1 to 200, not "500"$/m],
    [["resource", "list", "--size", "x"], /^kbox: --size takes a whole number from 1 to 200, not "x"$/m],
    [["backup", "schedule", "--every", "1h", "--keep", "none"], /^kbox: --keep takes a whole number of at least 1, not "none"$/m],
  ])("%j exits 2 naming the flag, not a request field", async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/body\.|query\./);
    expect(r.stdout).toBe("");
  });
});

describe("adding the same file again", () => {
  it("names the resource it is in, and applies new labels to it", async () => {
    const f = join(d.home, "plan.md");
    writeFileSync(f, "# Plan\n\nWe ship on Friday.\n");
    const first = await cli(["add", f, "--wait"]);
    const rid = first.stdout.split("\t")[0];
    expect(rid).toMatch(/^[0-9a-f]{32}$/);
    const plain = await cli(["add", f]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`${rid}\tDUPLICATE\t${f}\talready in the knowledge box as ${rid}\n`);
    const labelled = await cli(["add", f, "--label", "topic/planning"]);
    expect(labelled.code).toBe(0);
    expect(labelled.stdout).toContain(`already in the knowledge box as ${rid}; labels topic/planning applied`);
    const res = (await d.client.call(resources.getResource.byId, { params: { kbid, rid } })) as any;
    expect(res.usermetadata.classifications).toEqual([{ labelset: "topic", label: "planning" }]);
    const again = await cli(["add", f, "--label", "topic/planning", "--label", "team/ops"]);
    expect(again.stdout).toContain("labels topic/planning, team/ops applied");
    const res2 = (await d.client.call(resources.getResource.byId, { params: { kbid, rid } })) as any;
    expect(res2.usermetadata.classifications).toHaveLength(2);
  });
});

describe("resource create --wait", () => {
  it("returns once the resource is indexed: its id on stdout, the status on stderr", async () => {
    const r = await cli([
      "resource",
      "create",
      "--title",
      "Lunch",
      "--text",
      "Lunch is served at noon in the canteen.",
      "--wait",
    ]);
    expect(r.code).toBe(0);
    const rid = r.stdout.trim();
    expect(rid).toMatch(/^[0-9a-f]{32}$/);
    expect(r.stderr).toContain(`${rid} PROCESSED`);
    // Searchable at once.
    const found = await cli(["find", "canteen", "--features", "keyword", "--json"]);
    expect(Object.keys(JSON.parse(found.stdout).resources)).toContain(rid);
  });
});

describe("backups and imports", () => {
  it("backup schedule with none set exits 0 and says so", async () => {
    const r = await cli(["backup", "schedule"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /no backup schedule for this knowledge box; set one with `kbox backup schedule --every 24h --keep 7`/,
    );
    const j = await cli(["backup", "schedule", "--json"]);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toBeNull();
  });

  it("kb import without --slug into a taken slug names the slug and the way out", async () => {
    const archive = join(d.home, "first.tar.gz");
    expect((await cli(["kb", "export", "--out", archive])).code).toBe(0);
    const r = await cli(["kb", "import", archive]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the slug "first" is taken/);
    expect(r.stderr).toMatch(/--slug <new-slug>.*--into <kb>/);
    const ok = await cli(["kb", "import", archive, "--slug", "first-copy"]);
    expect(ok.code).toBe(0);
  });
});
