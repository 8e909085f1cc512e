import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as res from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { type LocalS3, startLocalS3 } from "../helpers/s3.js";
import { waitIdle } from "./ingest-helpers.js";

let s3: LocalS3;
let a: TestDaemon;
let b: TestDaemon;
let kbid: string;

const env = () => ({ ...s3.env, KBOX_DATA_URI: "s3://kbox/shared", KBOX_STORE_REFRESH: "1s" });

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Poll `probe` until it gives `want`; then (or at the deadline) assert it, so a failure shows what was seen. */
async function eventually<T>(probe: () => Promise<T>, want: T, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  let got: T | string = "never answered";
  while (Date.now() < end) {
    got = await probe().catch((e) => String(e));
    if (got === want) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(got).toBe(want);
}

async function count(d: TestDaemon): Promise<number> {
  let n = 0;
  for (let page = 0; ; page++) {
    const r = await d.client.call(res.listResources, { params: { kbid }, query: { page, size: 100 } });
    n += r.resources.length;
    if (r.pagination.last) return n;
  }
}

const hits = async (d: TestDaemon, query: string) =>
  Object.keys(
    (await d.client.call(find.find, { params: { kbid }, body: { query, features: ["keyword"], top_k: 200 } })).resources,
  );

beforeAll(async () => {
  s3 = await startLocalS3(["kbox"]);
  a = await startTestDaemon({ env: env() });
  b = await startTestDaemon({ env: env() });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await s3?.close();
});

describe("two daemons on one object-store prefix", () => {
  it("sees a box the other created", { timeout: 60_000 }, async () => {
    kbid = (await a.client.call(kbs.createKb, { body: { slug: "shared", title: "Shared" } })).uuid;
    const seen = await until(async () => (await b.client.call(kbs.getKbBySlug, { params: { slug: "shared" } })).uuid);
    expect(seen).toBe(kbid);
  });

  it("one ingests 200 documents while the other answers finds; then both see all; concurrent writes lose nothing", async () => {
    const doc = (i: number, who: string) => ({
      slug: `${who}-${i}`,
      title: `${who} note ${i}`,
      texts: { body: { body: `Harbour ledger entry ${i} written by ${who}: cargo of token${who}${i}.` } },
    });
    // Daemon a ingests 200 documents while b keeps finding.
    let stop = false;
    let finds = 0;
    const reader = (async () => {
      while (!stop) {
        await hits(b, "harbour ledger");
        finds++;
      }
    })();
    for (let i = 0; i < 200; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => a.client.call(res.createResource, { params: { kbid }, body: doc(i + j, "a") })),
      );
    await waitIdle(a.client, kbid, 240_000);
    stop = true;
    await reader;
    expect(finds).toBeGreaterThan(0);
    await eventually(() => count(b), 200);
    await eventually(async () => (await hits(b, "harbour ledger")).length, 200);
    expect(await hits(b, "tokena137")).toHaveLength(1);

    // Both write at once: 40 documents each, into the same box.
    await Promise.all(
      (["a", "b"] as const).flatMap((who) =>
        Array.from({ length: 40 }, (_, i) =>
          (who === "a" ? a : b).client.call(res.createResource, { params: { kbid }, body: doc(i, `w${who}`) }),
        ),
      ),
    );
    await Promise.all([waitIdle(a.client, kbid, 240_000), waitIdle(b.client, kbid, 240_000)]);
    for (const d of [a, b]) {
      await eventually(() => count(d), 280);
      // top_k stops at 200: each writer's 40 documents are counted by the word only they contain.
      await eventually(async () => (await hits(d, "wa")).length, 40);
      await eventually(async () => (await hits(d, "wb")).length, 40);
    }
    expect(await hits(a, "tokenwb7")).toHaveLength(1);
    expect(await hits(b, "tokenwa7")).toHaveLength(1);
    expect(s3.conflicts()).toBeGreaterThan(0); // commits did race, and were retried rather than lost
  }, 600_000);
});
