import type { ChildProcess } from "node:child_process";
import { afterAll, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as tasks from "../../src/api/tasks.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { addText, FRESH, freshPets, LABELER, poll, taskRecord } from "../helpers/tasks.js";
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
it("resources handed to a NEW task are run on after a kill -9, each once", async () => {
  let d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "durable-new" } })).uuid;
  for (let i = 0; i < N; i++) await addText(d.client, kbid, `old-${i}`, `Note ${i}: the cat sleeps on desk ${i}.`);
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
  for (let i = 0; i < 3; i++) fresh.push(await addText(d.client, kbid, `new-${i}`, `A kitten ${i} naps by the window.`));
  await waitIdle(d.client, kbid);
  const queued = await poll(
    () => taskRecord(d.client, kbid, ongoing.id),
    (r) => r?.progress.new_pending === 3,
    60_000,
  );
  expect(queued?.progress).toMatchObject({ new_data: 0, new_pending: 3 });
  // The batch still holds the runner: nothing ran on the new resources yet.
  expect((await taskRecord(d.client, kbid, batch.id))?.status).toBe("running");
  const exited = new Promise((r) => d.child.once("exit", r));
  d.child.kill("SIGKILL");
  await exited;

  d = await spawnTestDaemon(home, [], ENV);
  child = d.child;
  const after = await poll(
    () => taskRecord(d.client, kbid, ongoing.id),
    (r) => r?.progress.new_pending === 0 && r.progress.new_data === 3,
    60_000,
  );
  expect(after?.progress).toMatchObject({ new_data: 3, new_pending: 0 });
  expect(await freshPets(d.client, kbid)).toEqual([...fresh].sort());
  // The batch resumed too and finished.
  const done = await poll(
    () => taskRecord(d.client, kbid, batch.id),
    (r) => r?.status === "completed",
    60_000,
  );
  expect(done?.status).toBe("completed");
  d.child.kill("SIGTERM");
  await new Promise((r) => d.child.once("exit", r));
});
