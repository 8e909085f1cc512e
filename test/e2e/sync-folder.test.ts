import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
let kbid: string;
let root: string;

async function waitFor<T>(fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resources the sync owns, by origin path. */
async function synced(): Promise<Map<string, Record<string, any>>> {
  const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
  const out = new Map<string, Record<string, any>>();
  for (const r of list.resources) {
    // The sync may delete a resource between the listing and this read: it is simply gone.
    const full = await d.client
      .call(resources.getResource.byId, { params: { kbid, rid: r.id }, query: { show: ["basic", "origin"] } })
      .catch((e) => {
        if (e?.status === 404) return undefined;
        throw e;
      });
    const origin = full?.origin as any;
    if (full && origin?.source_id) out.set(origin.path, full);
  }
  return out;
}

async function lastJob(configId: string) {
  const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 1 } });
  return jobs.items[0];
}

async function settled(configId: string) {
  return waitFor(async () => {
    const j = await lastJob(configId);
    return j && (j.status === "completed" || j.status === "failed") ? j : undefined;
  });
}

beforeAll(async () => {
  d = await startTestDaemon({ keepHome: true });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "sync" } })).uuid;
  root = mkdtempSync(join(tmpdir(), "kbox-sync-"));
  writeFileSync(join(root, "a.md"), "# Alpha\n\nAlpha notes about oceans.");
  mkdirSync(join(root, "sub/deeper"), { recursive: true });
  writeFileSync(join(root, "sub/b.txt"), "Bravo notes about mountains.");
  writeFileSync(join(root, "sub/deeper/c.txt"), "Charlie notes about rivers.");
  writeFileSync(join(root, "skip.log"), "ignored by .gitignore");
  writeFileSync(join(root, ".gitignore"), "*.log\n");
  writeFileSync(join(root, ".hidden.txt"), "dotfiles are skipped");
});

afterAll(async () => {
  await d.stop();
  rmSync(d.home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe("folder sync", () => {
  let configId: string;

  it("adds every file of the tree, with origin path, hash and labels, honouring ignore rules", async () => {
    const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
    const config = await d.client.call(sync.addConfig, {
      params: { kbid },
      body: {
        name: "notes",
        external_connection_id: conn.id,
        sync_root_path: root,
        labels: [{ labelset: "src", label: "notes" }],
      },
    });
    configId = config.id;
    const job = await settled(configId);
    expect(job.status).toBe("completed");
    expect(job.stats).toMatchObject({ added: 3, failed: 0 });
    const got = await synced();
    expect([...got.keys()].sort()).toEqual(["/a.md", "/sub/b.txt", "/sub/deeper/c.txt"]);
    const a = got.get("/a.md")!;
    expect(a.origin).toMatchObject({ filename: "a.md", source_id: configId, sync_metadata: { file_id: "a.md" } });
    expect(a.origin.sync_metadata.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.usermetadata.classifications).toEqual([{ labelset: "src", label: "notes" }]);
  });

  it("a re-sync with no change does no work", async () => {
    const job = await d.client.call(sync.triggerSync, { params: { kbid, config_id: configId }, body: {} });
    expect(job.status).toBe("pending");
    await expect(d.client.call(sync.triggerSync, { params: { kbid, config_id: configId }, body: {} })).rejects.toMatchObject({
      status: 409,
    });
    const done = await settled(configId);
    expect(done.stats).toMatchObject({ added: 0, updated: 0, deleted: 0, moved: 0, unchanged: 3 });
  });

  it("follows edits, renames, deletions and new folders live", async () => {
    const before = await synced();
    writeFileSync(join(root, "a.md"), "# Alpha\n\nAlpha notes about oceans and tides.");
    renameSync(join(root, "sub/b.txt"), join(root, "sub/bravo.txt"));
    rmSync(join(root, "sub/deeper"), { recursive: true });
    mkdirSync(join(root, "new"));
    writeFileSync(join(root, "new/d.txt"), "Delta notes about deserts.");
    const after = await waitFor(async () => {
      const m = await synced();
      const ok = m.has("/sub/bravo.txt") && m.has("/new/d.txt") && !m.has("/sub/deeper/c.txt") && !m.has("/sub/b.txt");
      const edited = m.get("/a.md")?.origin.sync_metadata.content_hash !== before.get("/a.md")!.origin.sync_metadata.content_hash;
      return ok && edited ? m : undefined;
    });
    // A rename keeps the resource (no re-ingestion of unchanged content).
    expect(after.get("/sub/bravo.txt")!.id).toBe(before.get("/sub/b.txt")!.id);
    expect(after.get("/a.md")!.id).toBe(before.get("/a.md")!.id);
    expect(after.size).toBe(3);
  });

  it("reconciles changes made while the daemon was stopped", async () => {
    await d.daemon.stop();
    writeFileSync(join(root, "offline.txt"), "Echo notes written while kbox was down.");
    rmSync(join(root, "new/d.txt"));
    d = await startTestDaemon({ home: d.home, keepHome: true });
    const m = await waitFor(async () => {
      const got = await synced();
      return got.has("/offline.txt") && !got.has("/new/d.txt") ? got : undefined;
    });
    expect(m.size).toBe(3);
  });

  it("pages job logs and filters them by level", async () => {
    const job = await lastJob(configId);
    const page1 = await d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { limit: 1 } });
    expect(page1.items).toHaveLength(1);
    expect(page1.next_cursor).toBe(page1.items[0].id);
    const page2 = await d.client.call(sync.jobLogs, {
      params: { kbid, job_id: job.id },
      query: { limit: 500, cursor: page1.next_cursor! },
    });
    expect(page2.items.every((e) => e.id < page1.items[0].id)).toBe(true);
    const errors = await d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { level: "ERROR" } });
    expect(errors.items).toEqual([]);
    await expect(d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { limit: 501 } })).rejects.toMatchObject({
      status: 422,
    });
  });

  it("refuses a config whose root is not a folder", async () => {
    const conn = await d.client.call(sync.createConnection, { params: { kbid }, body: { provider: "local_folder" } });
    await expect(
      d.client.call(sync.addConfig, {
        params: { kbid },
        body: { name: "x", external_connection_id: conn.id, sync_root_path: "/nonexistent/dir" },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
