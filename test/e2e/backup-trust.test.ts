/**
 * Issue 15, faults 5 and 9: archives hold no stored secrets (a restore says they must be set again by
 * leaving them out), and a backup a kill -9 interrupted pins no table version after the next start.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as bk from "../../src/api/backups.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, removeHome, spawnTestDaemon, startTestDaemon, tempHome } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

const acct = { account_id: "local" };
const SECRET = "sk-SECRET-never-in-an-archive-42";
const homes: string[] = [];
afterAll(() => {
  for (const h of homes) removeHome(h);
});

async function waitFinished(client: KboxClient, id: string): Promise<bk.Backup> {
  for (let i = 0; i < 1200; i++) {
    const b = await client.call(bk.getBackup, { params: { ...acct, backup_id: id } });
    if (b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("backup did not finish");
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("secrets and backups", () => {
  it("a backup holds no user_keys secret; a restored box has none (fault 5)", async () => {
    const d = await startTestDaemon({ env: OFFLINE });
    const out = mkdtempSync(join(tmpdir(), "kbox-archive-"));
    try {
      const kbid = (await d.client.call(kbs.createKb, { body: { slug: "secret" } })).uuid;
      const set = await rawCall(d.client, "PATCH", `/api/v1/kb/${kbid}/configuration`, {
        user_keys: { openai: { url: "http://127.0.0.1:9/v1", key: SECRET, headers: { "x-api-key": SECRET } } },
      });
      expect(set.status).toBe(200);
      const { id } = await d.client.call(bk.createBackup, { params: acct, body: { kb_id: kbid } });
      const b = await waitFinished(d.client, id);
      expect(b.status).toBe("finished");
      const archive = readdirSync(join(d.home, "data", "backups")).find((n) => n.startsWith(id)) as string;
      execFileSync("tar", ["-xzf", join(d.home, "data", "backups", archive), "-C", out]);
      const texts = filesUnder(out)
        .filter((f) => f.endsWith(".json"))
        .map((f) => readFileSync(f, "utf8"));
      expect(texts.length).toBeGreaterThanOrEqual(2);
      for (const t of texts) expect(t).not.toContain(SECRET);
      const restored = (
        await d.client.call(bk.restoreBackup, { params: { ...acct, backup_id: id }, body: { slug: "back", title: "Back" } })
      ).id;
      const keys = d.daemon.services.kbs.require(restored).learning_configuration?.user_keys as Record<string, any>;
      expect(keys.openai).toEqual({ url: "http://127.0.0.1:9/v1", headers: {} });
      expect(JSON.stringify(keys)).not.toContain("********");
    } finally {
      rmSync(out, { recursive: true, force: true });
      await d.stop();
    }
  });

  it("kill -9 during a backup: the next start removes the tags that pinned old versions (fault 9)", async () => {
    const home = tempHome();
    homes.push(home);
    const { child, client } = await spawnTestDaemon(home, [], OFFLINE);
    const kbid = (await client.call(kbs.createKb, { body: { slug: "pinned" } })).uuid;
    for (let i = 0; i < 10; i++)
      await client.call(resources.createResource, {
        params: { kbid },
        body: { title: `n${i}`, texts: { t: { body: `Note ${i} about tides. `.repeat(200) } } },
      });
    await client.call(bk.createBackup, { params: acct, body: { kb_id: kbid } });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const d = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
    try {
      const { store } = await d.daemon.services.kbs.open(kbid);
      const left: string[] = [];
      for (const name of await store.db.tableNames()) {
        const t = await store.db.openTable(name);
        left.push(...Object.keys(await (await t.tags()).list()).filter((tag) => tag.startsWith("kbox-backup-")));
        t.close();
      }
      expect(left).toEqual([]);
      const list = await d.client.call(bk.listBackups, { params: acct });
      expect(list.map((b) => b.status)).toEqual(["failed"]);
    } finally {
      await d.stop();
    }
  }, 120_000);
});
