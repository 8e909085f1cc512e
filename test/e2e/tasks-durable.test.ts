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

const N = 12;
// A pause between resources makes the batch long enough to be killed in the middle.
const ENV = { ...OFFLINE, KBOX_TASK_PAUSE_MS: "150" };

async function progress(client: KboxClient, kbid: string, id: string) {
  return (await client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } })).request;
}

it("a daemon killed (-9) in the middle of a labeler task resumes it after restart and finishes every resource", async () => {
  let d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "durable-tasks" } })).uuid;
  for (let i = 0; i < N; i++)
    await d.client.call(resources.createResource, {
      params: { kbid },
      body: {
        slug: `pet-${i}`,
        texts: { body: { body: `Note ${i}: the cat sleeps on desk number ${i}.`, format: "PLAIN" } },
      } as never,
    });
  await waitIdle(d.client, kbid);
  const { id } = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: {
      name: "labeler",
      apply: "EXISTING",
      parameters: { ...LABELER, operations: [{ label: { ...LABELER.operations[0].label, multiple: true } }] },
    },
  });
  for (;;) {
    const p = await progress(d.client, kbid, id);
    if ((p?.progress.done ?? 0) >= 3) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise((r) => d.child.once("exit", r));
  d.child.kill("SIGKILL");
  await exited;

  d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const before = await progress(d.client, kbid, id);
  // Each resource's record is committed before the next starts: seeing 3 done means 2 were on disk.
  expect(before?.progress.done).toBeGreaterThanOrEqual(2);
  expect(before?.progress.done).toBeLessThan(N);
  let last = before;
  const until = Date.now() + 60_000;
  while (last?.status !== "completed" && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    last = await progress(d.client, kbid, id);
  }
  expect(last).toMatchObject({ status: "completed", progress: { done: N, total: N } });
  expect(last?.log.some((l) => /resumed after a restart/.test(l))).toBe(true);
  // Every resource got both labels, once: the resumed run did not redo or skip any.
  for (const label of ["pets", "work"]) {
    const f = await d.client.call(find.find, {
      params: { kbid },
      body: {
        query: "cat",
        top_k: 50,
        features: ["keyword"],
        filter_expression: { paragraph: { prop: "label", labelset: "auto", label } },
      } as never,
    });
    expect(Object.keys(f.resources).length).toBe(N);
  }
  d.child.kill("SIGTERM");
  await new Promise((r) => d.child.once("exit", r));
});
