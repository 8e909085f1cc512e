/**
 * Load soak: a real kboxd (child process, keyword retrieval, no model download) with a seeded box, then
 * C concurrent clients for S seconds doing a mix of reads (find, catalog, resource get, ask) and writes
 * (create a resource with a text field, update, delete). Prints throughput and p50/p99 latency by kind,
 * errors by kind and status (must be 0), daemon RSS and open file descriptors at start and end, and the
 * growth of KBOX_HOME/data.
 *
 *   npx tsx bench/soak.ts [seconds=180] [clients=16]
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as askApi from "../src/api/ask.js";
import * as findApi from "../src/api/find.js";
import * as kbs from "../src/api/kbs.js";
import { kboxPaths } from "../src/api/paths.js";
import * as res from "../src/api/resources.js";
import * as search from "../src/api/search.js";
import { ApiError } from "../src/client/errors.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../test/helpers/daemon.js";
import { quantile } from "./stats.js";

const SECONDS = Number(process.argv[2] ?? 180);
const CLIENTS = Number(process.argv[3] ?? 16);
/** Seconds to wait after settling for a last measurement, once old versions are past their retention (2 min): try 150. */
const AFTER_RETENTION = Number(process.argv[4] ?? 0);
const SEED = 200;
const TOPICS = ["release", "office", "billing", "hiring", "security", "travel", "backup", "network", "budget", "roadmap"];
/** The mix: each request picks a kind with these weights. */
const MIX: [Kind, number][] = [
  ["find", 30],
  ["catalog", 12],
  ["get", 18],
  ["ask", 8],
  ["create", 14],
  ["update", 10],
  ["delete", 8],
];
type Kind = "find" | "catalog" | "get" | "ask" | "create" | "update" | "delete";

const home = tempHome("kbox-soak-");
const dataDir = kboxPaths({ KBOX_HOME: home }).data;
const { child, client } = await spawnTestDaemon(home, [], OFFLINE);
const pid = child.pid as number;

const body = (t: string, i: number) =>
  `The ${t} team meets every week in room ${i}. Its lead is person ${i}.\n\n` +
  `Decisions about ${t} are recorded in note ${i} and reviewed monthly.\n\n` +
  `Questions about ${t} go to the ${t} channel.`;

function snapshot() {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const du = Number(execFileSync("du", ["-sk", dataDir], { encoding: "utf8" }).split("\t")[0]);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024, fds: readdirSync(`/proc/${pid}/fd`).length, dataMb: du / 1024 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until the box's paragraph count holds still (ingestion drained), at most `maxMs`. */
async function settle(kbid: string, maxMs: number): Promise<number> {
  const until = Date.now() + maxMs;
  let last = -1;
  for (;;) {
    const c = await client.call(kbs.counters, { params: { kbid } });
    if (c.paragraphs === last || Date.now() > until) return c.resources;
    last = c.paragraphs;
    await sleep(1000);
  }
}

try {
  const { uuid: kbid } = await client.call(kbs.createKb, { body: { slug: "soak" } });
  const t0 = performance.now();
  const seeded: string[] = [];
  for (let i = 0; i < SEED; i++) {
    const t = TOPICS[i % TOPICS.length];
    const r = await client.call(res.createResource, {
      params: { kbid },
      body: { slug: `seed-${i}`, title: `${t} ${i}`, texts: { body: { body: body(t, i), format: "PLAIN" } } } as never,
    });
    seeded.push(r.uuid);
  }
  for (let until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
    if ((await client.call(kbs.counters, { params: { kbid } })).paragraphs >= SEED * 3) break;
  }
  console.log(`seeded ${SEED} resources (3 paragraphs each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const start = snapshot();
  const lat = new Map<Kind, number[]>(MIX.map(([k]) => [k, []]));
  const errors = new Map<string, number>();
  const samples = new Map<string, string>();
  const fail = (kind: Kind, what: string, detail: string) => {
    const key = `${kind} ${what}`;
    errors.set(key, (errors.get(key) ?? 0) + 1);
    if (!samples.has(key)) samples.set(key, detail.slice(0, 200));
  };
  const total = MIX.reduce((s, [, w]) => s + w, 0);
  const pick = (): Kind => {
    let r = Math.random() * total;
    for (const [k, w] of MIX) {
      r -= w;
      if (r < 0) return k;
    }
    return "find";
  };
  const any = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

  async function op(kind: Kind, mine: string[], n: number): Promise<void> {
    const t = any(TOPICS);
    switch (kind) {
      case "find":
        await client.call(findApi.find, {
          params: { kbid },
          body: { query: `${t} room ${n % 300}`, features: ["keyword"], top_k: 10 },
        });
        return;
      case "catalog":
        await client.call(search.catalog, { params: { kbid }, body: { query: t, page_size: 20 } });
        return;
      case "get":
        await client.call(res.getResource.byId, {
          params: { kbid, rid: any(seeded) },
          query: { show: ["basic", "values"] } as never,
        });
        return;
      case "ask":
        for await (const line of client.stream(askApi.askKb, {
          params: { kbid },
          body: { query: `When does the ${t} team meet?`, features: ["keyword"] } as never,
        })) {
          const item = (line as { item?: { type?: string; error?: string } }).item;
          if (item?.type === "error") throw new Error(`stream error item: ${item.error}`);
        }
        return;
      case "create": {
        const r = await client.call(res.createResource, {
          params: { kbid },
          body: { title: `${t} soak ${n}`, texts: { body: { body: body(t, n), format: "PLAIN" } } } as never,
        });
        mine.push(r.uuid);
        return;
      }
      case "update": {
        const rid = mine.length ? any(mine) : any(seeded);
        await client.call(res.updateResource.byId, {
          params: { kbid, rid },
          body: { title: `${t} updated ${n}`, texts: { body: { body: body(t, n + 1), format: "PLAIN" } } } as never,
        });
        return;
      }
      case "delete": {
        const rid = mine.shift();
        if (rid) await client.call(res.deleteResource.byId, { params: { kbid, rid } });
        return;
      }
    }
  }

  const deadline = Date.now() + SECONDS * 1000;
  let n = 0;
  const runStart = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const mine: string[] = [];
      while (Date.now() < deadline) {
        let kind = pick();
        if (kind === "delete" && mine.length === 0) kind = "create";
        const q0 = performance.now();
        try {
          await op(kind, mine, n++);
          lat.get(kind)?.push(performance.now() - q0);
        } catch (e) {
          if (e instanceof ApiError) fail(kind, String(e.status), e.message);
          else fail(kind, (e as NodeJS.ErrnoException).code ?? "exception", String(e));
        }
      }
    }),
  );
  const runSec = (performance.now() - runStart) / 1000;
  const atStop = snapshot();
  const live = await settle(kbid, 30_000);
  const end = snapshot();
  let retained: ReturnType<typeof snapshot> | undefined;
  if (AFTER_RETENTION > 0) {
    await new Promise((r) => setTimeout(r, AFTER_RETENTION * 1000));
    retained = snapshot();
  }

  console.log(`\nsoak: ${CLIENTS} clients for ${runSec.toFixed(1)} s (keyword retrieval, extractive ask)`);
  console.log("kind      ok reqs   req/s    p50 ms    p99 ms");
  let all = 0;
  for (const [k, xs] of lat) {
    all += xs.length;
    const row = [k.padEnd(8), String(xs.length).padStart(8), (xs.length / runSec).toFixed(1).padStart(7)];
    console.log(
      `${row.join(" ")} ${(quantile(xs, 0.5) ?? 0).toFixed(1).padStart(9)} ${(quantile(xs, 0.99) ?? 0).toFixed(1).padStart(9)}`,
    );
  }
  console.log(`all      ${String(all).padStart(8)} ${(all / runSec).toFixed(1).padStart(7)}`);
  const errTotal = [...errors.values()].reduce((s, x) => s + x, 0);
  console.log(`\n*** ERRORS: ${errTotal} ${errTotal === 0 ? "(none)" : "<- MUST BE 0"} ***`);
  for (const [key, count] of errors) console.log(`  ${key}: ${count}  e.g. ${samples.get(key)}`);
  const f = (s: ReturnType<typeof snapshot>) => `RSS ${s.rssMb.toFixed(0)} MiB, fds ${s.fds}, data ${s.dataMb.toFixed(1)} MiB`;
  console.log(`\ndaemon at start:          ${f(start)}`);
  console.log(`daemon when clients stop: ${f(atStop)}`);
  console.log(`daemon after settling:    ${f(end)} (RSS high-water ${end.hwmMb.toFixed(0)} MiB)`);
  if (retained) console.log(`daemon ${AFTER_RETENTION} s later:       ${f(retained)} (old versions past their retention)`);
  console.log(
    `data folder growth: ${start.dataMb.toFixed(1)} -> ${end.dataMb.toFixed(1)} MiB (+${(end.dataMb - start.dataMb).toFixed(1)} MiB); live resources ${SEED} -> ${live}`,
  );
  process.exitCode = errTotal === 0 ? 0 : 1;
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  removeHome(home);
}
