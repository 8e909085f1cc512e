import { afterAll, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as tasks from "../../src/api/tasks.js";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, removeHome, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { addText, FRESH, freshPets, poll, taskRecord } from "../helpers/tasks.js";
import { waitIdle } from "./ingest-helpers.js";

// A kill between processing's commit and the journal write cannot be timed from a test: the gap is
// made by hand instead (the hand-over to the tasks never happens for one resource), then the daemon
// restarts on the same home and must hand that resource over, once.
const home = tempHome();
let d: TestDaemon | undefined;
afterAll(async () => {
  await d?.stop();
  removeHome(home);
});

const start = () => startTestDaemon({ home, keepHome: true, env: OFFLINE });
const record = async (client: KboxClient, kbid: string, id: string) => (await taskRecord(client, kbid, id))?.progress;
/** Processing commits resources but the tasks are never told: what a kill inside the gap leaves. */
const dropHandOvers = (t: TestDaemon) => {
  t.daemon.services.tasks.processed = async () => undefined;
};

it("a processed resource with no hand-over journalled gets the NEW task after a restart, once", async () => {
  d = await start();
  const kbid = (await d.client.call(kbs.createKb, { body: { slug: "offer-gap" } })).uuid;
  const task = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: "labeler", apply: "NEW", parameters: FRESH },
  });
  const a = await addText(d.client, kbid, "a", "A kitten naps by the window.");
  const client = d.client;
  expect(
    await poll(
      () => record(client, kbid, task.id),
      (p) => p?.new_data === 1 && p.new_pending === 0,
      30_000,
    ),
  ).toMatchObject({ new_data: 1 });

  dropHandOvers(d);
  const b = await addText(d.client, kbid, "b", "Another kitten naps on the desk.");
  await waitIdle(d.client, kbid);
  await new Promise((r) => setTimeout(r, 300));
  // The gap: b is processed, but neither journalled nor run on.
  expect(await record(d.client, kbid, task.id)).toMatchObject({ new_data: 1, new_pending: 0 });
  expect(await freshPets(d.client, kbid)).toEqual([a]);
  await d.stop();

  d = await start();
  const c2 = d.client;
  expect(
    await poll(
      () => record(c2, kbid, task.id),
      (p) => p?.new_data === 2 && p.new_pending === 0,
      30_000,
    ),
  ).toMatchObject({ new_data: 2, new_pending: 0 });
  expect(await freshPets(d.client, kbid)).toEqual([a, b].sort());
  // Nothing else is handed over: a ran before the restart and is not run again.
  await new Promise((r) => setTimeout(r, 500));
  expect(await record(d.client, kbid, task.id)).toMatchObject({ new_data: 2, new_pending: 0 });

  // A resource processed while the task is disabled is not its NEW data, even with nothing journalled.
  const enable = (client: KboxClient, enabled: boolean) =>
    client.call(tasks.enableTask, { params: { kb_uuid: kbid, task_id: task.id }, body: { enabled } });
  await enable(d.client, false);
  await addText(d.client, kbid, "c", "A third kitten, while the task is off.");
  await waitIdle(d.client, kbid);
  await enable(d.client, true);
  await d.stop();

  // Restarting again hands nothing over twice (the mark moved past a and b) and not c.
  d = await start();
  await new Promise((r) => setTimeout(r, 800));
  expect(await record(d.client, kbid, task.id)).toMatchObject({ new_data: 2, new_pending: 0 });
  expect(await freshPets(d.client, kbid)).toEqual([a, b].sort());

  // A cleanup removes the labels (d's too, handed over live); what was processed before it is not
  // handed over again at the next start.
  await addText(d.client, kbid, "d", "A fourth kitten, with the task on.");
  const c3 = d.client;
  expect(
    await poll(
      () => record(c3, kbid, task.id),
      (p) => p?.new_data === 3 && p.new_pending === 0,
      30_000,
    ),
  ).toMatchObject({
    new_data: 3,
  });
  await d.client.call(tasks.cleanupTask, { params: { kb_uuid: kbid, task_id: task.id } });
  expect(await freshPets(d.client, kbid)).toEqual([]);
  await d.stop();
  d = await start();
  await new Promise((r) => setTimeout(r, 800));
  expect(await record(d.client, kbid, task.id)).toMatchObject({ new_data: 3, new_pending: 0 });
  expect(await freshPets(d.client, kbid)).toEqual([]);
});
