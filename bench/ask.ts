/**
 * Ask benchmark: time to the first answer byte and total time, for the extractive default and for an
 * OpenAI-compatible endpoint on loopback; kbox's first-byte overhead over calling that endpoint directly
 * with the same prompt (beyond retrieval); peak daemon memory during a streamed answer.
 *
 *   npx tsx bench/ask.ts [resources=300] [runs=20]
 */
import { readFileSync } from "node:fs";
import * as kbs from "../src/api/kbs.js";
import * as resources from "../src/api/resources.js";
import { readAll } from "../src/client/transport.js";
import { OFFLINE, removeHome, spawnTestDaemon, startTestDaemon, tempHome } from "../test/helpers/daemon.js";
import { OpenAiStandIn } from "../test/helpers/openai-standin.js";
import { activityOverhead } from "./activity-overhead.js";
import { p50p95 } from "./stats.js";

const N = Number(process.argv[2] ?? 300);
const RUNS = Number(process.argv[3] ?? 20);
const TOPICS = ["release", "office", "billing", "hiring", "security", "travel", "backup", "network", "budget", "roadmap"];
const home = tempHome("kbox-bench-");
const { child, client } = await spawnTestDaemon(home);
const llm = await OpenAiStandIn.start();
llm.script = () => ({ chunks: Array.from({ length: 60 }, (_, i) => `token${i} `) });

const rssKb = (field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);

try {
  const { uuid: kbid } = await client.call(kbs.createKb, { body: { slug: "bench" } });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const t = TOPICS[i % TOPICS.length];
    const body = `The ${t} team meets every week in room ${i}. Its lead is person ${i}.\n\nDecisions about ${t} are recorded in note ${i} and reviewed monthly.\n\nQuestions about ${t} go to the ${t} channel.`;
    await client.call(resources.createResource, {
      params: { kbid },
      body: { slug: `doc-${i}`, title: `${t} ${i}`, texts: { body: { body, format: "PLAIN" } } } as never,
    });
  }
  // Wait for ingestion: every resource PROCESSED (keyword retrieval; no embedder in the benchmark).
  for (;;) {
    const c = await client.call(kbs.counters, { params: { kbid } });
    if (c.paragraphs >= N * 3) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`corpus: ${N} resources ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  /** One streamed ask: ms to the first answer item, total ms, retrieval ms (from debug timings). */
  async function timedAsk(model?: string) {
    const start = performance.now();
    const res = await client.raw({
      method: "POST",
      path: `/api/v1/kb/${kbid}/ask`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "When does the security team meet?",
        features: ["keyword"],
        debug: true,
        ...(model ? { generative_model: model } : {}),
      }),
    });
    let first = 0;
    let buf = "";
    let retrieval = 0;
    for await (const chunk of res.body) {
      buf += chunk;
      if (!first && buf.includes('"type":"answer"')) first = performance.now() - start;
    }
    for (const line of buf.trim().split("\n")) {
      const item = JSON.parse(line).item;
      if (item.type === "debug") retrieval = item.metadata.timings.retrieval * 1000;
    }
    return { first, total: performance.now() - start, retrieval };
  }

  async function series(label: string, model?: string) {
    await timedAsk(model); // warm-up
    const r = [];
    for (let i = 0; i < RUNS; i++) r.push(await timedAsk(model));
    console.log(
      `${label}: first byte ${p50p95(r.map((x) => x.first))}; total ${p50p95(r.map((x) => x.total))}; retrieval ${p50p95(r.map((x) => x.retrieval))}`,
    );
    return r;
  }

  await series("extractive");
  const viaKbox = await series("openai (loopback stand-in)", `openai:bench@${llm.url}`);

  // The same prompt, sent straight to the endpoint.
  const prompt = { ...llm.requests.at(-1) };
  delete prompt.path;
  delete prompt.headers;
  const direct: { first: number; total: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await fetch(`${llm.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(prompt),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let first = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first && new TextDecoder().decode(value).includes('"content"')) first = performance.now() - start;
    }
    direct.push({ first, total: performance.now() - start });
  }
  console.log(`openai direct: first byte ${p50p95(direct.map((x) => x.first))}; total ${p50p95(direct.map((x) => x.total))}`);
  const overhead = viaKbox.map((x, i) => x.first - x.retrieval - direct[i].first);
  console.log(`kbox overhead on the first byte beyond retrieval: ${p50p95(overhead)} (target <= 50 ms)`);

  // Peak memory while a long answer streams.
  llm.script = () => ({ chunks: Array.from({ length: 400 }, (_, i) => `word${i} `), delayMs: 2 });
  const before = rssKb("VmRSS");
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssKb("VmRSS"))), 5);
  await timedAsk(`openai:bench@${llm.url}`);
  clearInterval(timer);
  console.log(
    `daemon memory: RSS ${(before / 1024).toFixed(0)} MiB before, peak ${(peak / 1024).toFixed(0)} MiB during a streamed answer (lifetime high-water ${(rssKb("VmHWM") / 1024).toFixed(0)} MiB)`,
  );

  // What recording the activity log adds to an ask: an in-process daemon (its settings flipped between runs).
  const local = await startTestDaemon({ env: OFFLINE });
  try {
    const { uuid: small } = await local.client.call(kbs.createKb, { body: { slug: "overhead" } });
    for (let i = 0; i < 50; i++) {
      const t = TOPICS[i % TOPICS.length];
      await local.client.call(resources.createResource, {
        params: { kbid: small },
        body: {
          title: `${t} ${i}`,
          texts: { body: { body: `The ${t} team meets every week in room ${i}.`, format: "PLAIN" } },
        } as never,
      });
    }
    await local.daemon.services.processing.idle();
    await activityOverhead(
      "extractive ask",
      local.daemon.services.settings.activity,
      async () => {
        const res = await local.client.raw({
          method: "POST",
          path: `/api/v1/kb/${small}/ask`,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "When does the security team meet?", features: ["keyword"] }),
        });
        await readAll(res.body);
      },
      RUNS * 3,
    );
  } finally {
    await local.stop();
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  await llm.stop();
  removeHome(home);
}
