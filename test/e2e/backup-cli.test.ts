import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as bk from "../../src/api/backups.js";
import * as kbs from "../../src/api/kbs.js";
import * as res from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
let kbid: string;
let work: string;
const acct = { account_id: "local" };

beforeAll(async () => {
  d = await startTestDaemon();
  work = mkdtempSync(join(d.home, "work-"));
  kbid = (
    await d.client.call(kbs.createKb, {
      body: { slug: "notes", title: "Notes", learning_configuration: { semantic_model: "test-embedder" } },
    })
  ).uuid;
  for (let i = 0; i < 5; i++) {
    await d.client.call(res.createResource, {
      params: { kbid },
      body: { slug: `n-${i}`, title: `Note ${i}`, texts: { t: { body: `note ${i}` } } },
    });
  }
});
afterAll(async () => {
  await d.stop();
});

const slugs = async (id: string) =>
  (await d.client.call(res.listResources, { params: { kbid: id }, query: { page: 0, size: 100 } })).resources
    .map((r) => r.slug)
    .sort();

describe("kbox backup (CLI)", () => {
  let id: string;

  it("creates a backup: the id on stdout, status on stderr", async () => {
    const r = await d.cli(["backup", "create", "--kb", "notes"]);
    expect(r.stderr).toMatch(/backed up notes/);
    expect(r.code).toBe(0);
    id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows a progress bar on a TTY (stderr only)", async () => {
    const r = await d.cli(["backup", "create", "--kb", "notes"], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\x1b\[2K/);
    expect(r.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    await d.cli(["backup", "delete", r.stdout.trim(), "--yes"]);
  });

  it("lists backups as TSV when piped and as JSON with --json", async () => {
    const r = await d.cli(["backup", "list"]);
    expect(r.code).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith(id));
    expect(row?.split("\t").slice(1, 2)).toEqual(["notes"]);
    const j = JSON.parse((await d.cli(["backup", "list", "--json"])).stdout) as bk.Backup[];
    expect(j.find((b) => b.id === id)).toMatchObject({
      account_id: "local",
      status: "finished",
      kb_data: { slug: "notes", title: "Notes" },
    });
  });

  it("restores by id into a new KB, and refuses a missing --slug with exit 2", async () => {
    expect((await d.cli(["backup", "restore", id])).code).toBe(2);
    const r = await d.cli(["backup", "restore", id, "--slug", "notes-copy", "--title", "Copy"]);
    expect(r.code).toBe(0);
    const newId = r.stdout.trim();
    expect(await slugs(newId)).toEqual(await slugs(kbid));
    const kb = await d.client.call(kbs.getKb, { params: { kbid: newId } });
    expect(kb.model).toMatchObject({ semantic_model: "test-embedder" });
  });

  it("deletes a backup only with --yes when not on a TTY", async () => {
    expect((await d.cli(["backup", "delete", id])).code).toBe(2);
    const r = await d.cli(["backup", "delete", id, "--yes"]);
    expect(r.code).toBe(0);
    expect((await d.client.call(bk.listBackups, { params: acct })).map((b) => b.id)).not.toContain(id);
  });
});

describe("export and import", () => {
  let file: string;

  it("exports to a file and imports it as a new KB (round trip)", async () => {
    file = join(work, "notes.tar.gz");
    const r = await d.cli(["kb", "export", "--kb", "notes", "--out", file]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(file);
    expect(existsSync(file)).toBe(true);
    const imp = await d.cli(["kb", "import", file, "--slug", "imported", "--json"]);
    expect(imp.code).toBe(0);
    const out = JSON.parse(imp.stdout) as { kbid: string; slug: string };
    expect(out.slug).toBe("imported");
    expect(await slugs(out.kbid)).toEqual(await slugs(kbid));
    expect((await d.client.call(kbs.getKb, { params: { kbid: out.kbid } })).config.title).toBe("Notes");
  });

  it("`backup create --out` writes a restorable file", async () => {
    const f = join(work, "b.tar.gz");
    expect((await d.cli(["backup", "create", "--kb", "notes", "--out", f])).code).toBe(0);
    const r = await d.cli(["backup", "restore", f, "--slug", "from-file"]);
    expect(r.code).toBe(0);
    expect(await slugs(r.stdout.trim())).toEqual(await slugs(kbid));
  });

  it("imports into an existing empty KB, and refuses a non-empty one", async () => {
    const empty = (await d.client.call(kbs.createKb, { body: { slug: "empty", title: "Empty" } })).uuid;
    const r = await d.cli(["kb", "import", file, "--into", "empty"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(empty);
    expect(await slugs(empty)).toEqual(await slugs(kbid));
    const kb = await d.client.call(kbs.getKb, { params: { kbid: empty } });
    expect(kb).toMatchObject({ slug: "empty", config: { title: "Empty" }, model: { semantic_model: "test-embedder" } });
    const again = await d.cli(["kb", "import", file, "--into", "empty"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty/);
    // The KB accepts writes after the import.
    await d.client.call(res.createResource, { params: { kbid: empty }, body: { slug: "fresh", title: "Fresh" } });
    expect(await slugs(empty)).toContain("fresh");
  });

  it("refuses an archive of another format version with a clear message and creates nothing", async () => {
    const dir = join(work, "unpacked");
    mkdirSync(dir);
    await tar.x({ file, cwd: dir });
    const m = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...m, format_version: 99, kbox_version: "9.0.0" }));
    const future = join(work, "future.tar.gz");
    await tar.c({ file: future, gzip: true, cwd: dir }, readdirSync(dir));
    const before = (await d.client.call(kbs.listKbs)).kbs.length;
    const r = await d.cli(["kb", "import", future, "--slug", "future"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Incompatible backup format version 99 \(made by kbox 9\.0\.0\)/);
    expect((await d.client.call(kbs.listKbs)).kbs.length).toBe(before);
  });
});

describe("scheduled backups", () => {
  it("runs periodically and keeps only the last N scheduled backups (manual ones stay)", async () => {
    const manual = (await d.client.call(bk.createBackup, { params: acct, body: { kb_id: kbid } })).id;
    const set = await d.cli(["backup", "schedule", "--kb", "notes", "--every", "1s", "--keep", "2", "--json"]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ kb_id: kbid, interval_seconds: 1, keep: 2 });
    const seen = new Set<string>();
    const until = Date.now() + 30_000;
    while (seen.size < 4 && Date.now() < until) {
      const s = await d.client.call(bk.getSchedule, { params: { kbid } });
      if (s.last_backup_id) seen.add(s.last_backup_id);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.size).toBeGreaterThanOrEqual(4);
    expect((await d.cli(["backup", "schedule", "--kb", "notes", "--off"])).code).toBe(0);
    // A scheduled backup already under way finishes, then retention prunes.
    let list: bk.Backup[] = [];
    for (let i = 0; i < 100; i++) {
      list = (await d.client.call(bk.listBackups, { params: acct })).filter((b) => b.kb_data.id === kbid);
      if (list.every((b) => b.status !== "running") && list.filter((b) => b.scheduled).length <= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const scheduled = list.filter((b) => b.scheduled);
    expect(scheduled.length).toBeLessThanOrEqual(2);
    expect(scheduled.length).toBeGreaterThanOrEqual(1);
    expect(list.map((b) => b.id)).toContain(manual);
    const files = readdirSync(join(d.home, "data", "backups"));
    for (const b of scheduled) expect(files).toContain(`${b.id}.tar.gz`);
    expect(files.length).toBe(list.length);
    expect((await d.cli(["backup", "schedule", "--kb", "notes"])).stderr).toMatch(/no backup schedule/);
  });
});
