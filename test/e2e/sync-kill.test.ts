import { afterAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { exited, noteToken, sleep, syncedBox, tokenFolder, whyNotProcessed } from "../helpers/kill.js";

const N = 300;
const homes: string[] = [];

afterAll(() => {
  for (const h of homes) removeHome(h);
});

/** What the test reads of a listed resource. */
type Listed = { id: string; origin?: { path?: string }; metadata?: { status?: string } };

/** Every resource of the box (paged). */
async function allResources(client: KboxClient, kbid: string): Promise<Listed[]> {
  const out: Listed[] = [];
  for (let page = 0; ; page++) {
    const r = await client.call(resources.listResources, { params: { kbid }, query: { page, size: 200 } });
    out.push(...(r.resources as Listed[]));
    if (r.pagination.last || !r.resources.length) return out;
  }
}

describe("kill -9 during a folder sync", () => {
  it("after a restart every file is a resource exactly once, processed and findable by its own words", async () => {
    const home = tempHome();
    homes.push(home);
    const { root, rel } = tokenFolder(N, 50, "kbox-sync-kill-");
    const first = await spawnTestDaemon(home);
    const kbid = await syncedBox(first.client, root);
    // Kill it as soon as the sync has created some resources, while it creates and indexes the rest.
    let seen = 0;
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(20)) {
      seen = (await first.client.call(kbs.counters, { params: { kbid } })).resources;
      if (seen > 0) break;
    }
    first.child.kill("SIGKILL");
    await exited(first.child);
    expect(seen).toBeGreaterThan(0);

    const second = await spawnTestDaemon(home);
    try {
      // The start-up pass finishes the sync; ingestion resumes what was left PENDING.
      let list: Listed[] = [];
      for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
        list = await allResources(second.client, kbid);
        if (list.length >= N && list.every((r) => r.metadata?.status === "PROCESSED")) break;
      }
      const stuck = list.filter((r) => r.metadata?.status !== "PROCESSED").map((r) => r.id);
      if (stuck.length) expect.fail(`${stuck.length} not PROCESSED\n${await whyNotProcessed(second.client, home, kbid, stuck)}`);
      // Each file is one resource: the origin paths of all resources are the files, none twice.
      const paths: string[] = [];
      for (let i = 0; i < list.length; i += 20) {
        const got = await Promise.all(
          list
            .slice(i, i + 20)
            .map((r) =>
              second.client.call(resources.getResource.byId, { params: { kbid, rid: r.id }, query: { show: ["origin"] } }),
            ),
        );
        paths.push(...got.map((g) => (g as Listed).origin?.path ?? ""));
      }
      expect([...paths].sort()).toEqual(Array.from({ length: N }, (_, i) => `/${rel(i)}`).sort());
      const byPath = new Map(list.map((r, k) => [paths[k], r.id]));
      // Every file is found by its own word, as exactly one resource.
      for (let i = 0; i < N; i += 10) {
        const hits = await Promise.all(
          Array.from({ length: Math.min(10, N - i) }, (_, k) =>
            second.client.call(find.find, {
              params: { kbid },
              body: { query: noteToken(i + k), features: ["keyword"], top_k: 5 },
            }),
          ),
        );
        for (const [k, h] of hits.entries()) expect(Object.keys(h.resources)).toEqual([byPath.get(`/${rel(i + k)}`)]);
      }
    } finally {
      second.child.kill("SIGKILL");
      await exited(second.child);
    }
  }, 180_000);
});
