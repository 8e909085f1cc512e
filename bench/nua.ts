/**
 * Understanding-API processing benchmark, through a real kboxd process over its socket:
 *   1. throughput: N texts sent with `kbox add` (create resource) vs the same N through Send Data To
 *      Process (/processing/push), each until every one is processed; the API's cost over `kbox add`;
 *   2. SSE latency: single pushes followed by their result stream; the time from completion (the
 *      record's completed_at) to the completed event arriving, and push-to-result.
 * No embedding model (both paths run the same extraction, splitting and keyword indexing).
 *
 *   npx tsx bench/nua.ts [documents=200] [sse-runs=20]
 */
import * as kbs from "../src/api/kbs.js";
import * as nua from "../src/api/nua-processing.js";
import { processingStatus } from "../src/api/processing.js";
import * as resources from "../src/api/resources.js";
import { sse } from "../src/client/transport.js";
import { removeHome, spawnTestDaemon, tempHome } from "../test/helpers/daemon.js";
import { p50p95 } from "./stats.js";

const N = Number(process.argv[2] ?? 200);
const RUNS = Number(process.argv[3] ?? 20);
// documents per round; each path runs two rounds
const IN_FLIGHT = 8;
const TOPICS = ["release", "office", "billing", "hiring", "security", "travel", "backup", "network", "budget", "roadmap"];
const text = (i: number) => {
  const t = TOPICS[i % TOPICS.length];
  return Array.from(
    { length: 6 },
    (_, p) =>
      `Paragraph ${p} of note ${i}: the ${t} team meets in room ${i + p} and records decisions about ${t} in the shared log.`,
  ).join("\n\n");
};

async function pool(n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

const home = tempHome("kbox-bench-nua-");
const { child, client } = await spawnTestDaemon(home, [], { KBOX_MODELS_AUTOPULL: "0" });
try {
  // Warm up both paths (extraction workers, the client's internal box).
  await client.call(nua.pushV1, { body: { textfield: { t: { body: text(0), format: 0 } } } as never });
  await client.call(kbs.createKb, { body: { slug: "bench" } });
  const box = (await client.call(kbs.listKbs)).kbs.find((k) => k.slug.startsWith("nua-"))?.uuid as string;

  /** Wait until `n` resources of the box are PROCESSED (the same test for both paths). */
  async function processed(id: string, n: number): Promise<void> {
    for (;;) {
      const st = await client.call(processingStatus, { params: { kbid: id }, query: { limit: 1 } as never });
      if ((st.totals.PROCESSED ?? 0) >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // Alternate the two paths (add, push, push, add) on fresh boxes of their own: load from other processes
  // and warm-up effects fall on both; each path's best round is kept.
  let pushedSoFar = 1;
  async function addRound(round: number): Promise<number> {
    const { uuid: kbid } = await client.call(kbs.createKb, { body: { slug: `bench-${round}` } });
    const t0 = performance.now();
    await pool(N, (i) =>
      client.call(resources.createResource, {
        params: { kbid },
        body: { title: `note ${i}`, texts: { body: { body: text(i), format: "PLAIN" } } } as never,
      }),
    );
    await processed(kbid, N);
    return (performance.now() - t0) / 1000;
  }
  async function pushRound(): Promise<number> {
    const t0 = performance.now();
    await pool(N, (i) =>
      client.call(nua.pushV1, { body: { title: `note ${i}`, textfield: { body: { body: text(i), format: 0 } } } as never }),
    );
    pushedSoFar += N;
    await processed(box, pushedSoFar);
    return (performance.now() - t0) / 1000;
  }
  const a1 = await addRound(1);
  const p1 = await pushRound();
  const p2 = await pushRound();
  const a2 = await addRound(2);
  const addS = Math.min(a1, a2);
  const pushS = Math.min(p1, p2);
  console.log(`rounds: add ${a1.toFixed(2)} s, ${a2.toFixed(2)} s; push ${p1.toFixed(2)} s, ${p2.toFixed(2)} s`);

  const notify: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const { processing_id } = await client.call(nua.pushV1, {
      body: { textfield: { t: { body: text(i), format: 0 } } } as never,
    });
    const res = await client.raw({ method: "GET", path: `/api/v1/processing/requests/${processing_id}/results` });
    for await (const ev of sse(res)) {
      const e = ev as { type: string; completed_at?: string };
      if (e.type !== "completed") continue;
      notify.push(Date.now() - Date.parse(e.completed_at ?? ""));
      total.push(performance.now() - start);
    }
  }

  console.log(`documents: ${N} texts of 6 paragraphs, ${IN_FLIGHT} requests in flight, no embedding model`);
  console.log(`kbox add (create resource):   ${(N / addS).toFixed(1)} docs/s  (${addS.toFixed(2)} s)`);
  console.log(`processing push (NUA API):    ${(N / pushS).toFixed(1)} docs/s  (${pushS.toFixed(2)} s)`);
  console.log(`API cost over kbox add:       ${((pushS / addS - 1) * 100).toFixed(1)} %`);
  console.log(`SSE: completion -> event      ${p50p95(notify)}`);
  console.log(`SSE: push -> completed event  ${p50p95(total)}  (${RUNS} runs)`);
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  removeHome(home);
}
