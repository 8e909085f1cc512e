import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let d: TestDaemon;
let kbid: string;
let root: string;
let web: Server;
let base: string;
/** The slow page answers only when released (keeps a sitemap job running). */
let releaseSlow: () => void = () => undefined;

const cli = (args: string[], tty = false) => d.cli([...args, "--kb", "notes"], { tty });

async function configNamed(name: string) {
  const all = await d.client.call(sync.listConfigs, { params: { kbid } });
  return all.find((c) => c.name === name)!;
}

/** Wait until the config has no pending or running job; returns the latest job. */
async function idle(name: string) {
  const c = await configNamed(name);
  for (const until = Date.now() + 20_000; Date.now() < until; ) {
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: c.id }, query: { limit: 100 } });
    if (jobs.items.length && jobs.items.every((j) => j.status !== "pending" && j.status !== "running")) return jobs.items[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not settle`);
}

function startSite(): Promise<void> {
  web = createServer((req, res) => {
    const url = req.url ?? "/";
    const urlset = (paths: string[]) => `<urlset>${paths.map((p) => `<url><loc>${base}${p}</loc></url>`).join("")}</urlset>`;
    if (url === "/robots.txt") return res.end("");
    if (url === "/partial.xml") return res.end(urlset(["/p1", "/missing"]));
    if (url === "/slow.xml") return res.end(urlset(["/slow"]));
    if (url === "/p1") return res.end("<html><body><p>Page one.</p></body></html>");
    if (url === "/slow") {
      const t = setTimeout(() => res.end("<html><body><p>Slow page.</p></body></html>"), 10_000);
      releaseSlow = () => {
        clearTimeout(t);
        res.end("<html><body><p>Slow page.</p></body></html>");
      };
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  return new Promise((r) =>
    web.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      r();
    }),
  );
}

beforeAll(async () => {
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "notes" } })).uuid;
  root = mkdtempSync(join(tmpdir(), "kbox-sync-cli-"));
  writeFileSync(join(root, "a.md"), "# A\n\nAlpha.");
  writeFileSync(join(root, "b.txt"), "Bravo.");
  mkdirSync(join(root, "drafts"));
  writeFileSync(join(root, "drafts/x.md"), "Draft.");
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "sub/c.md"), "Charlie.");
  await startSite();
});

afterAll(async () => {
  releaseSlow();
  await d?.stop();
  web?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("kbox sync add", () => {
  it("creates a folder sync with filters, labels and interval: the id on stdout, status on stderr", async () => {
    const r = await cli([
      "sync",
      "add",
      root,
      "--name",
      "docs",
      "--include",
      "*.md",
      "--exclude",
      "drafts/",
      "--label",
      "src/notes",
      "--label",
      "team/a",
      "--interval",
      "30",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(UUID);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`syncing folder ${root}`);
    const c = await configNamed("docs");
    expect(c.id).toBe(r.stdout.trim());
    expect(c).toMatchObject({
      sync_root_path: root,
      sync_interval_minutes: 30,
      file_filter: { mode: "include", glob_patterns: ["*.md"] },
      ignore: ["drafts/"],
      labels: [
        { labelset: "src", label: "notes" },
        { labelset: "team", label: "a" },
      ],
    });
    const job = await idle("docs");
    expect(job).toMatchObject({ status: "completed", trigger: "created" });
    expect(job.stats).toMatchObject({ added: 2, failed: 0 });
    await waitIdle(d.client, kbid);
    const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 50 } });
    // a.md opens with a heading: its title; c.md has none: its file name.
    expect(list.resources.map((x) => x.title).sort()).toEqual(["A", "c.md"]);
  });

  it("--json prints the created configuration", async () => {
    const r = await cli(["sync", "add", `${base}/partial.xml`, "--name", "site", "--json"]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c).toMatchObject({
      name: "site",
      sync_root_path: `${base}/partial.xml`,
      external_connection: { provider: "sitemap" },
    });
    await idle("site");
  });

  it("usage errors exit 2 and write nothing to stdout", async () => {
    for (const args of [
      ["sync", "add", root, "--label", "nolabelset"],
      ["sync", "add", root, "--interval", "1.5"],
      ["sync", "add", root, "--interval", "soon"],
      ["sync", "add"],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toBe("");
    }
    expect((await d.client.call(sync.listConfigs, { params: { kbid } })).map((c) => c.name).sort()).toEqual(["docs", "site"]);
  });

  it("a folder that does not exist is the daemon's refusal: exit 1", async () => {
    const r = await cli(["sync", "add", join(root, "nope")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a folder/);
    expect(r.stdout).toBe("");
  });
});

describe("kbox sync list and show", () => {
  it("piped: TSV rows without a header", async () => {
    const r = await cli(["sync", "list"]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows.map((x) => x[1])).toEqual(["docs", "site"]);
    expect(rows[0][2]).toBe(`folder ${root}`);
    expect(rows[0][3]).toBe("30m");
    expect(rows[0][4]).toMatch(/^\d{4}-/);
  });

  it("TTY: an aligned table with a header", async () => {
    const r = await cli(["sync", "list"], true);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/id\s+name\s+source\s+every\s+last run/i);
    expect(r.stdout).not.toContain("\t");
  });

  it("--json is the wire response", async () => {
    const r = await cli(["sync", "list", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual(await d.client.call(sync.listConfigs, { params: { kbid } }));
  });

  it("show by name or id; --json is the config", async () => {
    const c = await configNamed("docs");
    const r = await cli(["sync", "show", "docs"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(c.id);
    expect(r.stdout).toContain("src/notes, team/a");
    expect(r.stdout).toMatch(/completed \(created\)/);
    const j = await cli(["sync", "show", c.id, "--json"]);
    expect(JSON.parse(j.stdout)).toEqual(c);
  });

  it("an unknown configuration exits 1 with a hint on stderr", async () => {
    for (const verb of ["show", "run", "jobs", "logs", "remove"]) {
      const r = await cli(["sync", verb, "nope", ...(verb === "remove" ? ["--yes"] : [])]);
      expect(r.code, verb).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain('no sync configuration "nope"');
      expect(r.stderr).toContain("hint: list them with `kbox sync list`");
    }
  });
});

describe("kbox sync run", () => {
  it("--wait: status on stderr, exit 0 when everything synced", async () => {
    writeFileSync(join(root, "new.md"), "New file.");
    const r = await cli(["sync", "run", "docs", "--wait"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    // The watcher may pick the new file up first: either way the three files are in sync.
    const m = /sync completed: (\d) added, 0 updated, 0 moved, 0 deleted, (\d) unchanged, 0 failed/.exec(r.stderr);
    expect(m).not.toBeNull();
    expect(Number(m![1]) + Number(m![2])).toBe(3);
  });

  it("without --wait prints the job id; --full --wait --json prints the finished job", async () => {
    const r = await cli(["sync", "run", "docs"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(UUID);
    await idle("docs");
    const j = await cli(["sync", "run", "docs", "--full", "--wait", "--json"]);
    expect(j.code).toBe(0);
    const job = JSON.parse(j.stdout);
    expect(job).toMatchObject({ status: "completed", trigger: "api", options: { full_sync: true } });
    expect(job.stats.scanned).toBe(3);
  });

  it("TTY --wait: progress and the summary on stderr, nothing on stdout", async () => {
    const r = await cli(["sync", "run", "docs", "--wait"], true);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/sync completed: 0 added, 0 updated, 0 moved, 0 deleted, 3 unchanged, 0 failed/);
  });

  it("exits 5 when some items failed", async () => {
    const r = await cli(["sync", "run", "site", "--wait"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/sync completed: .*1 failed/);
  });

  it("exits 1 when the job failed", async () => {
    const add = await cli(["sync", "add", `${base}/dead.xml`, "--name", "dead"]);
    expect(add.code).toBe(0);
    await idle("dead");
    const r = await cli(["sync", "run", "dead", "--wait"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("sync failed");
  });

  it("409 while a job is pending or running: exit 1 with the reason", async () => {
    await cli(["sync", "add", `${base}/slow.xml`, "--name", "slow"]);
    const r = await cli(["sync", "run", "slow"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already pending or running/);
    expect(r.stdout).toBe("");
  });

  it("logs --follow --job prints a running job's entries until it ends", async () => {
    const job = JSON.parse((await cli(["sync", "jobs", "slow", "--limit", "1", "--json"])).stdout).items[0];
    expect(job.status).toMatch(/pending|running/);
    setTimeout(() => releaseSlow(), 500);
    const r = await cli(["sync", "logs", "slow", "--follow", "--job", job.id]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/\tINFO\tcreated sync started$/);
    expect(lines.at(-1)).toMatch(/\tINFO\tsync finished: 1 added/);
  });
});

describe("kbox sync jobs and logs", () => {
  it("jobs: newest first, TSV piped; --limit and --json with a cursor", async () => {
    const r = await cli(["sync", "jobs", "docs"]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    // A watch job may sit among them (the watcher saw new.md).
    expect(rows.map((x) => x[2]).filter((t) => t !== "watch")).toEqual(["api", "api", "api", "api", "created"]);
    expect(rows.every((x) => x[1] === "completed")).toBe(true);
    const j = JSON.parse((await cli(["sync", "jobs", "docs", "--limit", "1", "--json"])).stdout);
    expect(j.items).toHaveLength(1);
    expect(j.next_cursor).not.toBeNull();
    const more = await cli(["sync", "jobs", "docs", "--limit", "1"]);
    expect(more.stderr).toContain(`more: --cursor ${j.next_cursor}`);
    const next = JSON.parse((await cli(["sync", "jobs", "docs", "--limit", "10", "--cursor", j.next_cursor, "--json"])).stdout);
    expect(next.items.map((x: { id: string }) => x.id)).toEqual(rows.slice(1).map((x) => x[0]));
  });

  it("bad --limit or --level are usage errors", async () => {
    for (const args of [
      ["sync", "jobs", "docs", "--limit", "0"],
      ["sync", "jobs", "docs", "--limit", "x"],
      ["sync", "logs", "docs", "--limit", "501"],
      ["sync", "logs", "docs", "--level", "LOUD"],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
    }
  });

  it("logs: the latest job's entries, oldest first; --level filters; --json is the wire page", async () => {
    const r = await cli(["sync", "logs", "site"]);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(lines[0][2]).toBe("api sync started");
    expect(lines.at(-1)![2]).toMatch(/^sync finished/);
    expect(lines.some((l) => l[1] === "ERROR" && l[2].includes("/missing: HTTP 404"))).toBe(true);
    const errors = await cli(["sync", "logs", "site", "--level", "error"]);
    expect(errors.stdout.trim().split("\n")).toHaveLength(1);
    expect(errors.stdout).toContain("/missing: HTTP 404");
    const tty = await cli(["sync", "logs", "site", "--level", "ERROR"], true);
    expect(tty.stdout).toMatch(/^\d\d:\d\d:\d\d ERROR /);
    const j = JSON.parse((await cli(["sync", "logs", "site", "--json", "--limit", "2"])).stdout);
    expect(j.items).toHaveLength(2);
    expect(j.items[0].id).toBeGreaterThan(j.items[1].id);
    expect(typeof j.next_cursor).toBe("number");
  });

  it("logs --follow --job on a finished job prints everything and returns (without --job it stays: test/e2e/follow-cli)", async () => {
    const job = JSON.parse((await cli(["sync", "jobs", "docs", "--limit", "1", "--json"])).stdout).items[0];
    const r = await cli(["sync", "logs", "docs", "--follow", "--json", "--job", job.id]);
    expect(r.code).toBe(0);
    const entries = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(entries[0].message).toMatch(/sync started/);
    expect(entries.at(-1).message).toMatch(/sync finished/);
  });
});

describe("kbox watch", () => {
  it("adds a folder sync once; a second call reuses it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "kbox-watch-"));
    try {
      writeFileSync(join(folder, "w.md"), "Watched.");
      const first = await cli(["watch", folder, "--json"]);
      expect(first.code).toBe(0);
      const c = JSON.parse(first.stdout);
      expect(c).toMatchObject({ sync_root_path: folder, external_connection: { provider: "local_folder" } });
      expect(first.stderr).toContain(`watching ${folder}`);
      const second = await cli(["watch", folder]);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe("");
      expect(second.stderr).toContain(`already watching ${folder}`);
      expect(second.stderr).toContain(c.id);
      const all = await d.client.call(sync.listConfigs, { params: { kbid } });
      expect(all.filter((x) => x.sync_root_path === folder).map((x) => x.id)).toEqual([c.id]);
      await idle(c.name);
      expect((await cli(["sync", "remove", c.id, "--yes"])).code).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("kbox sync remove", () => {
  it("needs --yes when not on a TTY; keeps the resources unless --delete-resources", async () => {
    const refused = await cli(["sync", "remove", "docs"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    const r = await cli(["sync", "remove", "docs", "--yes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("removed sync docs");
    expect((await d.client.call(sync.listConfigs, { params: { kbid } })).map((c) => c.name)).not.toContain("docs");
    const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 50 } });
    expect(list.resources.map((x) => x.title)).toContain("A");
    const site = await configNamed("site");
    expect((await cli(["sync", "remove", "site", "--yes", "--delete-resources"])).code).toBe(0);
    const after = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 50 } });
    expect(after.resources.some((x) => x.title.startsWith(base) && x.title.endsWith("/p1"))).toBe(false);
    expect(site.id).toMatch(UUID);
  });
});
