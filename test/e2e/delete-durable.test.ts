/**
 * Issue 15, fault 8: deleting a knowledge box is atomic. The record's removal is the commit point; the
 * folder moves to trash and goes, and whatever a kill -9 interrupted the next start finishes. Requests
 * racing a deletion get 404, never 500.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, removeHome, spawnTestDaemon, startTestDaemon, tempHome } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) removeHome(h);
});

async function boxWithText(client: KboxClient, slug: string, n: number): Promise<string> {
  const kbid = (await client.call(kbs.createKb, { body: { slug } })).uuid;
  for (let i = 0; i < n; i++)
    await client.call(resources.createResource, {
      params: { kbid },
      body: { title: `Note ${i}`, texts: { t: { body: `Note ${i} about lighthouses and tides. `.repeat(50) } } },
    });
  return kbid;
}

const kbFolders = (home: string) => readdirSync(join(home, "data", "kbs")).filter((n) => /^[0-9a-f-]{36}$/.test(n));

describe("deleting a knowledge box", () => {
  it("at start, finishes deletions left half-done: trash and folders no box owns are removed, live boxes kept", async () => {
    const home = tempHome();
    homes.push(home);
    let d = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
    const live = await boxWithText(d.client, "live", 2);
    await d.stop();
    const orphan = join(home, "data", "kbs", randomUUID());
    mkdirSync(join(orphan, "blobs"), { recursive: true });
    writeFileSync(join(orphan, "blobs", "left"), Buffer.alloc(1024 * 1024));
    mkdirSync(join(home, "data", "trash", "dead.0001"), { recursive: true });
    writeFileSync(join(home, "data", "trash", "dead.0001", "x"), "x");
    d = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
    try {
      expect(existsSync(orphan)).toBe(false);
      expect(readdirSync(join(home, "data", "trash"))).toEqual([]);
      expect(kbFolders(home)).toContain(live);
      expect((await d.client.call(resources.listResources, { params: { kbid: live }, query: {} })).resources).toHaveLength(2);
    } finally {
      await d.stop();
    }
  });

  it("kill -9 during DELETE leaves the box either whole and listed, or unlisted with its folder gone after restart", async () => {
    const outcomes: string[] = [];
    for (const delay of [0, 15, 60]) {
      const home = tempHome();
      homes.push(home);
      let { child, client } = await spawnTestDaemon(home, [], OFFLINE);
      const kbid = await boxWithText(client, `k${delay}`, 8);
      void rawCall(client, "DELETE", `/api/v1/kb/${kbid}`).catch(() => undefined);
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      ({ child, client } = await spawnTestDaemon(home, [], OFFLINE));
      try {
        const listed = (await client.call(kbs.listKbs, {})).kbs.some((k) => k.uuid === kbid);
        if (listed) {
          expect((await rawCall(client, "GET", `/api/v1/kb/${kbid}/resources`)).status).toBe(200);
        } else {
          expect(kbFolders(home)).not.toContain(kbid);
          expect(readdirSync(join(home, "data", "trash")).length).toBe(0);
        }
        outcomes.push(listed ? "kept" : "gone");
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    }
    expect(outcomes.length).toBe(3);
  }, 240_000);

  it("requests racing a deletion get 2xx or 404, never a 500; nothing re-creates its folder", async () => {
    const d = await startTestDaemon({ env: OFFLINE });
    try {
      const kbid = await boxWithText(d.client, "race", 5);
      const list = await d.client.call(resources.listResources, { params: { kbid }, query: {} });
      const rid = list.resources[0].id;
      const racing: Promise<number>[] = [];
      for (let i = 0; i < 60; i++) {
        const k = i % 4;
        const call =
          k === 0
            ? rawCall(d.client, "POST", `/api/v1/kb/${kbid}/resources`, { title: `r${i}`, texts: { t: { body: "late text" } } })
            : k === 1
              ? rawCall(d.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "lighthouses", features: ["keyword"] })
              : k === 2
                ? rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rid}?show=basic`)
                : rawCall(d.client, "PATCH", `/api/v1/kb/${kbid}/resource/${rid}`, { title: `t${i}` });
        racing.push(call.then((r) => r.status));
        if (i === 20) racing.push(rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}`).then((r) => r.status));
      }
      const statuses = await Promise.all(racing);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.every((s) => s < 300 || s === 404 || s === 409)).toBe(true);
      await new Promise((r) => setTimeout(r, 3000));
      expect(kbFolders(d.home)).not.toContain(kbid);
    } finally {
      await d.stop();
    }
  }, 60_000);
});
