import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as resources from "../../src/api/resources.js";
import * as tasks from "../../src/api/tasks.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";
import { LABELER } from "../helpers/tasks.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
});
afterAll(async () => d?.stop());

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const inspect = (kb: string, id: string) => d.client.call(tasks.inspectTask, { params: { kb_uuid: kb, task_id: id } });
const labelsOf = async (kbid: string, rid: string) => {
  const rows = await (await d.daemon.services.store.kb(kbid)).paragraphs.resourceRows(rid);
  return Object.fromEntries(rows.filter((r) => r.field === "t/body").map((r) => [r.text.slice(0, 20), r.labels]));
};

describe("labeler on EXISTING and NEW data, lifecycle rules, delete with cleanup", () => {
  let kbid: string;
  let rids: Record<string, string>;
  let existing: string;
  let ongoing: string;

  beforeAll(async () => {
    ({ kbid, rids } = await seedKb(d, "tasks"));
  });

  it("lists the available tasks, the unsupported ones saying why", async () => {
    const l = await d.client.call(tasks.listTasks, { params: { kb_uuid: kbid } });
    const byName = Object.fromEntries(l.tasks.map((t) => [t.name, t]));
    expect(byName.labeler).toMatchObject({ supported: true, can_cleanup: true, data_augmentation: true });
    expect(byName["semantic-model-migrator"].supported).toBe(true);
    expect(byName["llm-align"]).toMatchObject({ supported: false });
    const bad = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/task/start`, { name: "llm-align", apply: "EXISTING" });
    expect(bad.status).toBe(422);
    expect((bad.json as any).detail[0]).toMatchObject({
      loc: ["body", "name"],
      msg: expect.stringMatching(/not supported here/),
    });
    const noOps = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/task/start`, {
      name: "labeler",
      apply: "EXISTING",
      parameters: {},
    });
    expect(noOps.status).toBe(422);
    expect((noOps.json as any).detail[0].loc).toEqual(["body", "parameters", "operations"]);
  });

  it("labels the matching paragraphs of EXISTING resources, offline, saying so", async () => {
    const r = await d.client.call(tasks.startTask, {
      params: { kb_uuid: kbid },
      body: { name: "labeler", apply: "EXISTING", parameters: LABELER },
    });
    expect(r).toMatchObject({ name: "labeler", task: "labeler", status: "scheduled" });
    existing = r.id;
    const done = await waitFor(
      () => inspect(kbid, existing),
      (x) => x.request?.status === "completed",
    );
    expect(done.config).toBeUndefined();
    expect(done.request).toMatchObject({
      status: "completed",
      completed: true,
      apply: "EXISTING",
      method: "offline:keyword-and-example-matching",
      progress: { done: 3, total: 3 },
    });
    const cats = await labelsOf(kbid, rids.cats);
    expect(Object.values(cats).every((l) => l.includes("/l/auto/pets"))).toBe(true);
    const ship = await labelsOf(kbid, rids.shipping);
    // "release", "hotfix"; the office's "office", "front desk", "desks" (a plural counts).
    expect(ship).toEqual({
      "The team ships a new": ["/l/auto/work"],
      "Hotfixes can ship on": ["/l/auto/work"],
      "The release notes ar": ["/l/auto/work"],
    });
    expect(Object.values(await labelsOf(kbid, rids.office))).toEqual([["/l/auto/work"], ["/l/auto/work"], ["/l/auto/work"]]);
    // Find's paragraph-label filter sees them at once.
    const f = await d.client.call(find.find, {
      params: { kbid },
      body: {
        query: "cats",
        features: ["keyword"],
        filter_expression: { paragraph: { prop: "label", labelset: "auto", label: "pets" } },
      } as never,
    });
    const found = Object.values(f.resources).flatMap((res: any) =>
      Object.values(res.fields).flatMap((fl: any) => Object.keys(fl.paragraphs)),
    );
    expect(found.length).toBe(2);
    expect(found.every((id) => id.startsWith(rids.cats))).toBe(true);
  });

  it("follows the lifecycle rules: 409 for stop/restart on NEW tasks and enable/patch on EXISTING ones", async () => {
    const p = { kb_uuid: kbid, task_id: existing };
    const call = (path: string, body?: unknown, method = "POST") =>
      rawCall(d.client, method, `/api/v1/kb/${kbid}/task/${existing}${path}`, body);
    expect((await call("/enable", { enabled: false })).status).toBe(409);
    expect((await call("", { parameters: LABELER }, "PATCH")).status).toBe(409);
    const stopDone = await call("/stop", {});
    expect(stopDone.status).toBe(409);
    expect((stopDone.json as any).detail).toMatch(/not running/);
    const again = await d.client.call(tasks.restartTask, { params: p, body: {} });
    expect(again.status).toBe("scheduled");
    const redone = await waitFor(
      () => inspect(kbid, existing),
      (x) => x.request?.status === "completed",
    );
    expect(redone.request).toMatchObject({ retries: 1, progress: { done: 3 } });

    const n = await d.client.call(tasks.startTask, {
      params: { kb_uuid: kbid },
      body: { name: "labeler", apply: "NEW", parameters: LABELER },
    });
    ongoing = n.id;
    expect(n.status).toBe("not_running");
    const callNew = (path: string, body?: unknown, method = "POST") =>
      rawCall(d.client, method, `/api/v1/kb/${kbid}/task/${ongoing}${path}`, body);
    expect((await callNew("/stop", {})).status).toBe(409);
    expect((await callNew("/restart", {})).status).toBe(409);
    expect((await callNew("/enable", { enabled: false })).status).toBe(200);
    expect((await inspect(kbid, ongoing)).config?.enabled).toBe(false);
    expect((await callNew("/enable", { enabled: true })).status).toBe(200);
    const patched = await callNew("", { parameters: { ...LABELER, on: 0 } }, "PATCH");
    expect(patched.status).toBe(200);
    const l = await d.client.call(tasks.listTasks, { params: { kb_uuid: kbid } });
    expect(l.configs.map((t) => t.id)).toEqual([ongoing]);
    expect(l.done.map((t) => t.id)).toEqual([existing]);
  });

  it("labels a resource added afterwards with the NEW task", async () => {
    const { uuid } = await d.client.call(resources.createResource, {
      params: { kbid },
      body: {
        slug: "dogs",
        title: "Dogs",
        texts: { body: { body: "A dog needs a walk twice a day.", format: "PLAIN" } },
      } as never,
    });
    await d.daemon.services.processing.idle();
    const after = await waitFor(
      () => inspect(kbid, ongoing),
      (x) => (x.config?.progress.new_data ?? 0) >= 1,
    );
    expect(after.config?.progress.new_data).toBe(1);
    expect(await labelsOf(kbid, uuid)).toEqual({ "A dog needs a walk t": ["/l/auto/pets"] });
  });

  it("deletes a task with cleanup: the labels it added go, the other task's stay", async () => {
    const res = await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/task/${existing}?cleanup=true`);
    expect(res.status).toBe(200);
    expect((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/task/${existing}/inspect`)).status).toBe(404);
    for (const rid of Object.values(rids)) for (const l of Object.values(await labelsOf(kbid, rid))) expect(l).toEqual([]);
    const dogs =
      d.daemon.services.store.kbs.get(kbid) &&
      [...(await d.daemon.services.store.kb(kbid)).resources.values()].find((r) => r.slug === "dogs");
    expect(Object.values(await labelsOf(kbid, dogs?.id ?? ""))).toEqual([["/l/auto/pets"]]);
  });

  it("labels whole fields (on 1) into the resource's field classifications, and cleans them up", async () => {
    const r = await d.client.call(tasks.startTask, {
      params: { kb_uuid: kbid },
      body: { name: "labeler", apply: "EXISTING", parameters: { ...LABELER, on: 1 } },
    });
    await waitFor(
      () => inspect(kbid, r.id),
      (x) => x.request?.status === "completed",
    );
    const got = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids.cats}`).then((x) => x.json);
    expect((got as any).computedmetadata.field_classifications).toEqual([
      { field: { field: "body", field_type: "text" }, classifications: [{ labelset: "auto", label: "pets" }] },
    ]);
    expect((await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/task/${r.id}/cleanup`, {})).status).toBe(200);
    const after = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids.cats}`).then((x) => x.json);
    expect((after as any).computedmetadata.field_classifications).toEqual([]);
  });
});
