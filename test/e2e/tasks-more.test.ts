import { afterAll, beforeAll, expect, it } from "vitest";
import { fieldRecordKey } from "../../daemon/store/index.js";
import * as tasks from "../../src/api/tasks.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let kbid: string;
let rids: Record<string, string>;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  ({ kbid, rids } = await seedKb(d, "more"));
});
afterAll(async () => d?.stop());

async function run(name: string, parameters: Record<string, unknown>) {
  const { id } = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: name as never, apply: "EXISTING", parameters },
  });
  for (;;) {
    const t = (await d.client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } })).request;
    if (t && ["completed", "failed"].includes(t.status)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("synthetic-questions stores question–answer pairs as the field's question_answers, and an asset with a signed URL", async () => {
  const t = await run("synthetic-questions", {});
  expect(t).toMatchObject({ status: "completed", method: "offline:question-templates" });
  const store = await d.daemon.services.store.kb(kbid);
  const doc = await store.fields.get(fieldRecordKey(rids.cats, "t/body"));
  await store.loadExtracted([doc]);
  const qa = (doc?.extracted?.question_answers as any)?.question_answers?.question_answers;
  expect(qa).toHaveLength(2);
  expect(qa[0].question.text).toMatch(/^What does the text say about .*sleep/);
  expect(qa[0].answers[0].text).toBe("Cats sleep between 12 and 16 hours a day.");
  const assets = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/assets`)).json as any;
  expect(assets.assets.length).toBe(3);
  const { url } = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/assets/${assets.assets[0].id}`)).json as any;
  const path = new URL(url).pathname;
  const dl = await rawCall(d.client, "GET", path);
  expect(dl.status).toBe(200);
  expect(Array.isArray(dl.json)).toBe(true);
  expect((await rawCall(d.client, "GET", `${path}x`)).status).toBe(404);
  // Cleanup takes the question answers off again.
  await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/task/${t.id}/cleanup`, {});
  const again = await store.fields.get(fieldRecordKey(rids.cats, "t/body"));
  await store.loadExtracted([again]);
  expect(again?.extracted?.question_answers).toBeUndefined();
  expect(((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/assets`)).json as any).assets).toEqual([]);
});

it("ask stores the answer to its prompt as a generated text field (the extractive answerer offline)", async () => {
  const t = await run("ask", { operations: [{ ask: { question: "How long do cats sleep?", destination: "sleep" } }] });
  expect(t).toMatchObject({ status: "completed", method: "offline:extractive-answerer" });
  await d.daemon.services.processing.idle();
  const r = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids.cats}?show=values`)).json as any;
  expect(r.data.texts["da-sleep"].value.body).toMatch(/12 and 16 hours/);
});

it("guard-a labels paragraphs violating an enabled policy with the policy's name", async () => {
  const account = d.daemon.services.accounts.default.id;
  await rawCall(d.client, "POST", `/api/v1/account/${account}/guardrail_policies`, {
    name: "Pets watch",
    instruction: "pets",
    query: "kitten",
    enabled: true,
    blocking: false,
  });
  const t = await run("guard-a", {});
  expect(t).toMatchObject({ status: "completed", method: "offline:trigger-terms" });
  const rows = await (await d.daemon.services.store.kb(kbid)).paragraphs.resourceRows(rids.cats);
  expect(rows.filter((r) => r.labels.includes("/l/guardrails/Pets watch")).map((r) => r.text)).toEqual([
    "Cats sleep between 12 and 16 hours a day. Kittens sleep even more.",
  ]);
});

it("llm-graph adds the entities and relations it finds to the resource's relations; cleanup removes them", async () => {
  const t = await run("llm-graph", { operations: [{ graph: { entity_defs: [{ label: "PERSON" }] } }] });
  expect(t).toMatchObject({ status: "completed", method: "offline:entity-extraction" });
  const rels = () =>
    rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rids.shipping}?show=relations`).then((x) =>
      ((x.json as any).relations ?? []).filter((r: any) => r.metadata?.data_augmentation_task_id === t.id),
    );
  expect(await rels()).toContainEqual(
    expect.objectContaining({ relation: "ENTITY", to: { value: "Maria Lopez", type: "entity", group: "PERSON" } }),
  );
  await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/task/${t.id}?cleanup=true`);
  expect(await rels()).toEqual([]);
});
