import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_ACCOUNT } from "../../src/api/accounts.js";
import * as bk from "../../src/api/backups.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

const acct = { account_id: LOCAL_ACCOUNT };
let d: TestDaemon;
let root: string;

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Origin paths of the resources a knowledge box holds. */
async function paths(kbid: string): Promise<string[]> {
  const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
  const out: string[] = [];
  for (const r of list.resources) {
    const full = await d.client.call(resources.getResource.byId, { params: { kbid, rid: r.id }, query: { show: ["origin"] } });
    const p = (full.origin as { path?: string } | undefined)?.path;
    if (p) out.push(p);
  }
  return out.sort();
}

beforeAll(async () => {
  d = await startTestDaemon();
  root = mkdtempSync(join(tmpdir(), "kbox-bksync-"));
  writeFileSync(join(root, "one.md"), "# One\n\nThe first note.");
});

afterAll(async () => {
  await d.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("a restored knowledge box", () => {
  it("accepts new writes and keeps its folder sync going", async () => {
    const src = (await d.client.call(kbs.createKb, { body: { slug: "synced" } })).uuid;
    const conn = await d.client.call(sync.createConnection, { params: { kbid: src }, body: { provider: "local_folder" } });
    await d.client.call(sync.addConfig, {
      params: { kbid: src },
      body: { name: "notes", external_connection_id: conn.id, sync_root_path: root },
    });
    await until(async () => (await paths(src)).includes("/one.md"));

    const { id } = await d.client.call(bk.createBackup, { params: acct, body: { kb_id: src } });
    await until(async () => {
      const b = await d.client.call(bk.getBackup, { params: { ...acct, backup_id: id } });
      return b.finished_at ? b : undefined;
    });
    const restored = (
      await d.client.call(bk.restoreBackup, { params: { ...acct, backup_id: id }, body: { slug: "copy", title: "Copy" } })
    ).id;
    expect(await paths(restored)).toEqual(["/one.md"]);

    // New writes land in the restored box.
    const created = await d.client.call(resources.createResource, {
      params: { kbid: restored },
      body: { title: "written after restore" },
    });
    expect(created.uuid).toMatch(/^[0-9a-f]{32}$/);

    // Its sync configuration came along, re-keyed to the new box and disabled (issue 15, fault 10): two
    // boxes never sync one folder unasked. The source keeps syncing; the copy does once enabled.
    const configs = await d.client.call(sync.listConfigs, { params: { kbid: restored } });
    expect(configs.map((c) => [c.name, c.kb_id, c.enabled])).toEqual([["notes", restored, false]]);
    expect(d.daemon.services.sync.runner.watching().filter((k) => k.startsWith(restored))).toEqual([]);
    const trigger = await rawCall(d.client, "POST", `/api/v1/kb/${restored}/sync_configs/${configs[0].id}/sync`, {});
    expect(trigger.status).toBe(409);
    writeFileSync(join(root, "two.md"), "# Two\n\nA note written after the restore.");
    await until(async () => (await paths(src)).includes("/two.md"));
    expect(await paths(restored)).toEqual(["/one.md"]);
    await d.client.call(sync.updateConfig, { params: { kbid: restored, config_id: configs[0].id }, body: { enabled: true } });
    await until(async () => (await paths(restored)).includes("/two.md"));
    expect(await paths(restored)).toEqual(["/one.md", "/two.md"]);
  });
});
