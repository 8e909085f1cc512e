import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Store } from "../../daemon/store/index.js";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { ApiError } from "../../src/client/errors.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { waitIdle } from "./ingest-helpers.js";

const N = 500;
const home = tempHome();
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill("SIGKILL");
  removeHome(home);
});

const body = (i: number): api.CreateResource => ({
  slug: `doc-${i}`,
  texts: { t: { body: `Document ${i} opens with a first paragraph.\n\nIts second paragraph, number ${i}, closes it.` } },
});

/** Create every missing document, `width` at a time; returns the indexes acknowledged (201, or 409: committed earlier). */
async function createAll(
  client: KboxClient,
  kbid: string,
  todo: number[],
  width: number,
  onAck?: (n: number) => void,
): Promise<Set<number>> {
  const acked = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = todo[next++];
      try {
        await client.call(api.createResource, { params: { kbid }, body: body(i) });
        acked.add(i);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) acked.add(i);
        else return; // the daemon went away
      }
      onAck?.(acked.size);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return acked;
}

it(`kill -9 during a ${N}-document ingestion: after restart all are PROCESSED once, with no orphan paragraphs`, async () => {
  let d = await spawnTestDaemon(home, [], OFFLINE);
  child = d.child;
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "durable" } })).uuid;
  const killed = new Promise<void>((resolve) => {
    d.child.once("exit", () => resolve());
  });
  const first = await createAll(d.client, kbid, [...Array(N).keys()], 16, (n) => {
    if (n === Math.floor(N / 2)) d.child.kill("SIGKILL");
  });
  await killed;
  expect(first.size).toBeGreaterThanOrEqual(N / 2);
  expect(first.size).toBeLessThan(N);

  d = await spawnTestDaemon(home, [], OFFLINE);
  child = d.child;
  const rest = [...Array(N).keys()].filter((i) => !first.has(i));
  const second = await createAll(d.client, kbid, rest, 16);
  expect(second.size).toBe(rest.length);
  await waitIdle(d.client, kbid, 240_000);

  const seen = new Map<string, string>();
  for (let page = 0; ; page++) {
    const list = await d.client.call(api.listResources, { params: { kbid }, query: { page, size: 200 } });
    for (const r of list.resources) seen.set(r.id, (r as { slug: string }).slug);
    for (const r of list.resources) expect((r as { metadata: { status: string } }).metadata.status).toBe("PROCESSED");
    if (list.pagination.last) break;
  }
  expect(seen.size).toBe(N);
  expect(new Set(seen.values()).size).toBe(N);

  const exited = new Promise((r) => d.child.once("exit", r));
  d.child.kill("SIGTERM");
  await exited;
  child = undefined;
  const store = await Store.open(join(home, "data"));
  try {
    const kb = await store.kb(kbid);
    const perRid = new Map<string, number>();
    for (const rid of await kb.paragraphs.resourceIds()) perRid.set(rid, await kb.paragraphs.count(`rid = '${rid}'`));
    expect([...perRid.keys()].filter((rid) => !seen.has(rid))).toEqual([]); // no orphans
    expect(perRid.size).toBe(N);
    expect([...perRid.values()].every((n) => n === 2)).toBe(true); // no duplicates
  } finally {
    await store.close();
  }
}, 400_000);
