/**
 * Issue 17's durability check at size: kill -9 the daemon while it syncs and indexes a folder of 10,000
 * files, restart it, and find every file exactly once. (sync-kill.test.ts does the same with 300 files
 * and checks every token; here the exactly-once check covers all 10,000 files and findability a sample.)
 */
import { afterAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as processing from "../../src/api/processing.js";
import type { KboxClient } from "../../src/client/client.js";
import { removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { exited, noteToken, originPaths, sleep, syncedBox, tokenFolder } from "../helpers/kill.js";

const N = 10_000;
/** Files findable by their own word, checked one by one: every 50th, and the first and last. */
const SAMPLE = [...Array.from({ length: N / 50 }, (_, k) => k * 50 + (k % 50)), N - 1];
const homes: string[] = [];

afterAll(() => {
  for (const h of homes) removeHome(h);
});

/** Resources by status over the whole box, and the queue's counts. */
async function state(client: KboxClient, kbid: string) {
  const s = await client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1 } });
  return { totals: s.totals, queued: s.queue.pending + s.queue.running };
}

describe("kill -9 during a 10,000-file folder sync", () => {
  it("after a restart each of the 10,000 files is one resource, PROCESSED, findable by its own word", async () => {
    const t0 = performance.now();
    const home = tempHome();
    homes.push(home);
    const { root, rel } = tokenFolder(N, 100, "kbox-sync-kill-10k-");
    const first = await spawnTestDaemon(home);
    const kbid = await syncedBox(first.client, root);
    // Kill it once a tenth of the files are resources: the pass is still creating the rest, and
    // ingestion has some processed and many acknowledged but PENDING.
    let seen = { resources: 0, pending: 0 };
    for (const until = Date.now() + 300_000; Date.now() < until; await sleep(20)) {
      const s = await state(first.client, kbid);
      seen = { resources: Object.values(s.totals).reduce((a, b) => a + b, 0), pending: s.totals.PENDING ?? 0 };
      if (seen.resources >= N / 10) break;
    }
    first.child.kill("SIGKILL");
    await exited(first.child);
    expect(seen.resources).toBeGreaterThanOrEqual(N / 10);
    expect(seen.resources < N || seen.pending > 0).toBe(true);
    const killedAt = performance.now();

    const second = await spawnTestDaemon(home);
    try {
      // The start-up pass finishes the sync; ingestion resumes what was left PENDING.
      let s = await state(second.client, kbid);
      for (const until = Date.now() + 900_000; Date.now() < until; await sleep(500)) {
        s = await state(second.client, kbid);
        if ((s.totals.PROCESSED ?? 0) >= N && !s.queued) break;
      }
      expect(s.totals).toEqual({ PROCESSED: N });
      const doneAt = performance.now();
      // Exactly once: the origin paths of all resources are the 10,000 files, none twice, none missing.
      const paths = await originPaths(second.client, kbid);
      expect(paths.size).toBe(N);
      expect([...paths.values()].sort()).toEqual(Array.from({ length: N }, (_, i) => `/${rel(i)}`).sort());
      const byPath = new Map([...paths].map(([rid, p]) => [p, rid]));
      // Findable by its own word, as exactly that one resource (a sample: 10,000 finds take long).
      for (let k = 0; k < SAMPLE.length; k += 10) {
        const batch = SAMPLE.slice(k, k + 10);
        const hits = await Promise.all(
          batch.map((i) =>
            second.client.call(find.find, { params: { kbid }, body: { query: noteToken(i), features: ["keyword"], top_k: 5 } }),
          ),
        );
        for (const [j, h] of hits.entries()) expect(Object.keys(h.resources)).toEqual([byPath.get(`/${rel(batch[j])}`)]);
      }
      const secs = (t: number) => ((t - t0) / 1000).toFixed(1);
      process.stderr.write(
        `sync-kill-10k: killed at ${secs(killedAt)} s with ${seen.resources} resources (${seen.pending} PENDING); all ${N} PROCESSED at ${secs(doneAt)} s; checked at ${secs(performance.now())} s\n`,
      );
    } finally {
      second.child.kill("SIGKILL");
      await exited(second.child);
    }
  }, 1_500_000);
});
