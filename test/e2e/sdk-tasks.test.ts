import { type Nuclia, TaskManager, Training, type WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LABELER } from "../helpers/tasks.js";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK's TaskManager and Training, unchanged, against kboxd in zone mode.
let z: RemoteZone;
let nuclia: Nuclia;
let kb: WritableKnowledgeBox;
let tm: TaskManager;
let training: Training;

beforeAll(async () => {
  z = await startRemoteZone("europe-7");
  nuclia = zoneSdk(z.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
  kb = await firstValueFrom(
    nuclia.db.createKnowledgeBox(z.account.id, { slug: "sdk-tasks", title: "Tasks", zone: z.name } as never, z.name),
  );
  for (const [slug, body] of [
    ["cats", "Cats sleep a lot. A kitten sleeps even more."],
    ["ship", "The team ships a release every Friday."],
  ])
    await firstValueFrom(kb.createResource({ slug, title: slug, texts: { body: { body, format: "PLAIN" } } } as never, true));
  await z.d.daemon.services.processing.idle();
  tm = new TaskManager(kb, nuclia);
  training = new Training(kb, nuclia);
});
afterAll(async () => z?.stop());

const poll = async (id: string) => {
  for (;;) {
    const t = (await firstValueFrom(tm.getTask(id))) as any;
    if (t.request?.status === "completed") return t;
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("@nuclia/core TaskManager in zone mode", () => {
  let existing: string;
  let ongoing: string;

  it("starts a labeler on EXISTING data (the SDK's default) and inspects it until done", async () => {
    const r = (await firstValueFrom(tm.startTask("labeler", LABELER as never))) as any;
    expect(r).toMatchObject({ task: "labeler", status: "scheduled" });
    existing = r.id;
    const t = await poll(existing);
    expect(t.request).toMatchObject({
      apply: "EXISTING",
      progress: { done: 2, total: 2 },
      method: "offline:keyword-and-example-matching",
    });
    const built = (nuclia as unknown as { builtUrls: string[] }).builtUrls;
    expect(built).toContain(`https://europe-7.rag.kbox.test/api/v1/kb/${kb.id}/task/start`);
  });

  it("lists tasks, and applies the lifecycle rules to NEW-data tasks", async () => {
    const n = (await firstValueFrom(tm.startTask("labeler", LABELER as never, "NEW" as never, true))) as any;
    ongoing = n.id;
    const list = (await firstValueFrom(tm.getTasks(5))) as any;
    expect(list.tasks.map((t: any) => t.name)).toContain("semantic-model-migrator");
    expect(list.configs.map((t: any) => t.id)).toEqual([ongoing]);
    expect(list.done.map((t: any) => t.id)).toEqual([existing]);
    await firstValueFrom(tm.enableTask(ongoing, false));
    expect(((await firstValueFrom(tm.getTask(ongoing))) as any).config.enabled).toBe(false);
    const edited = (await firstValueFrom(tm.editTask(ongoing, { ...LABELER, name: "renamed" } as never))) as any;
    expect(edited.parameters.name).toBe("renamed");
    await expect(firstValueFrom(tm.stopTask(ongoing))).rejects.toMatchObject({ status: 409 });
    await expect(firstValueFrom(tm.enableTask(existing, true))).rejects.toMatchObject({ status: 409 });
    const again = (await firstValueFrom(tm.restartTask(existing))) as any;
    expect(again).toMatchObject({ id: existing, status: "scheduled" });
    await poll(existing);
  });

  it("cleans a task and deletes them (with cleanup)", async () => {
    const cleaned = (await firstValueFrom(tm.cleanTask(existing))) as any;
    expect(cleaned.request.id).toBe(existing);
    await firstValueFrom(tm.deleteTask(existing, true));
    await firstValueFrom(tm.deleteTask(ongoing));
    const list = (await firstValueFrom(tm.getTasks())) as any;
    expect([...list.configs, ...list.done, ...list.running]).toEqual([]);
  });
});

describe("@nuclia/core Training in zone mode", () => {
  it("trains a paragraph labeler from labelled paragraphs; a classifier without labelled resources fails", async () => {
    const r = (await firstValueFrom(tm.startTask("labeler", LABELER as never))) as any;
    await poll(r.id);
    expect(await firstValueFrom(training.getStatus("paragraph-labeler" as never))).toMatchObject({ status: "not_running" });
    const started = (await firstValueFrom(training.start("paragraph-labeler" as never, { valid_labelsets: ["auto"] }))) as any;
    expect(started).toMatchObject({ task: "paragraph-labeler", status: "finished", last_execution: { status: "succeeded" } });
    expect(await firstValueFrom(training.hasModel("paragraph-labeler" as never))).toBe(true);
    const failed = (await firstValueFrom(training.start("classifier" as never))) as any;
    expect(failed.last_execution.status).toBe("failed");
    expect(await firstValueFrom(training.hasModel("classifier" as never))).toBe(false);
    const ex = (await firstValueFrom(training.getExecutions())) as any;
    expect(ex.items.map((i: any) => [i.task, i.status])).toEqual([
      ["classifier", "failed"],
      ["paragraph-labeler", "succeeded"],
    ]);
    expect(await firstValueFrom(training.stop("paragraph-labeler" as never))).toMatchObject({ status: "finished" });
  });
});
