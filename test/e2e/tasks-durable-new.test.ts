import type { ChildProcess } from "node:child_process";
import { afterAll, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as tasks from "../../src/api/tasks.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { LABELER } from "../helpers/tasks.js";
import { waitIdle } from "./ingest-helpers.js";

const home = tempHome();
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
  removeHome(home);
});

// A slow batch on EXISTING data holds the runner (one job at a time), so the resources processed
// meanwhile wait in the NEW task's queue: that is when the daemon is killed.
const ENV = { ...OFFLINE, KBOX_TASK_PAUSE_MS: "300" };
const N = 15;
const FRESH = { ...LABELER, operations: [{ label: { ...LABELER.operations[0].label, ident: "fresh" } }] };

const record = async (client: KboxClient, kbid: string, id: string) => {
  const r = await client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } });
  return r.config ?? r.request;
};
const add = (client: KboxClient, kbid: string, slug: string, text: string) =>
  client.call(resources.createResource, {
    params: { kbid },
    body: { slug, texts: { body: { body: text, format: "PLAIN" } } } as never,
  });

async function poll<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("resources handed to a NEW task are run on after a kill -9, each once", async () => {
  let d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "durable-new" } })).uuid;
  for (let i = 0; i < N; i++) await add(d.client, kbid, `old-${i}`, `Note ${i}: the cat sleeps on desk ${i}.`);
  await waitIdle(d.client, kbid);
  const batch = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: "labeler", apply: "EXISTING", parameters: LABELER },
  });
  const ongoing = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: "labeler", apply: "NEW", parameters: FRESH },
  });
  const fresh: string[] = [];
  for (let i = 0; i < 3; i++) fresh.push((await add(d.client, kbid, `new-${i}`, `A kitten ${i} naps by the window.`)).uuid);
  await waitIdle(d.client, kbid);
  const queued = await poll(
    () => record(d.client, kbid, ongoing.id),
    (r) => r?.progress.new_pending === 3,
  );
  expect(queued?.progress).toMatchObject({ new_data: 0, new_pending: 3 });
  // The batch still holds the runner: nothing ran on the new resources yet.
  expect((await record(d.client, kbid, batch.id))?.status).toBe("running");
  const exited = new Promise((r) => d.child.once("exit", r));
  d.child.kill("SIGKILL");
  await exited;

  d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const after = await poll(
    () => record(d.client, kbid, ongoing.id),
    (r) => r?.progress.new_pending === 0 && r.progress.new_data === 3,
  );
  expect(after?.progress).toMatchObject({ new_data: 3, new_pending: 0 });
  const f = await d.client.call(find.find, {
    params: { kbid },
    body: {
      query: "kitten",
      top_k: 50,
      features: ["keyword"],
      filter_expression: { paragraph: { prop: "label", labelset: "fresh", label: "pets" } },
    } as never,
  });
  expect(Object.keys(f.resources).sort()).toEqual([...fresh].sort());
  // The batch resumed too and finished.
  const done = await poll(
    () => record(d.client, kbid, batch.id),
    (r) => r?.status === "completed",
  );
  expect(done?.status).toBe("completed");
  d.child.kill("SIGTERM");
  await new Promise((r) => d.child.once("exit", r));
});
