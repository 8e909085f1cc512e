import { tableFromIPC } from "apache-arrow";
import { readParquet } from "parquet-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tasks from "../../src/api/tasks.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";
import { LABELER } from "../helpers/tasks.js";

let d: TestDaemon;
let account: string;
let kbid: string;
let rids: Record<string, string>;
beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  account = d.daemon.services.accounts.default.id;
  ({ kbid, rids } = await seedKb(d, "datasets"));
  // Paragraph labels from a labeler task, and one a user attaches by hand.
  const { id } = await d.client.call(tasks.startTask, {
    params: { kb_uuid: kbid },
    body: { name: "labeler", apply: "EXISTING", parameters: LABELER },
  });
  while ((await d.client.call(tasks.inspectTask, { params: { kb_uuid: kbid, task_id: id } })).request?.status !== "completed")
    await new Promise((r) => setTimeout(r, 50));
  const rows = await (await d.daemon.services.store.kb(kbid)).paragraphs.resourceRows(rids.cats);
  const purr = rows.find((r) => r.text.startsWith("Cats purr")) as { id: string };
  const patched = await rawCall(d.client, "PATCH", `/api/v1/kb/${kbid}/resource/${rids.cats}`, {
    fieldmetadata: [
      {
        field: { field: "body", field_type: "text" },
        paragraphs: [{ key: purr.id, classifications: [{ labelset: "mood", label: "calm" }] }],
      },
    ],
  });
  expect(patched.status).toBe(200);
  await d.daemon.services.processing.idle();
});
afterAll(async () => d?.stop());

const base = () => `/api/v1/account/${account}`;

async function partitionBytes(id: string, pid: string): Promise<Buffer> {
  const res = await d.client.raw({ method: "GET", path: `${base()}/dataset/${id}/partition/${pid}` });
  const chunks: Buffer[] = [];
  for await (const c of res.body) chunks.push(Buffer.from(c));
  expect(res.status).toBe(200);
  return Buffer.concat(chunks);
}

/** A partition's rows: an Arrow IPC stream, or (`parquet`) a Parquet file read back with parquet-wasm. */
async function partitionRows(id: string, pid: string, parquet = false): Promise<Record<string, unknown>[]> {
  const bytes = await partitionBytes(id, pid);
  if (parquet) expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(["PAR1", "PAR1"]);
  return tableFromIPC(parquet ? readParquet(bytes).intoIPCStream() : bytes)
    .toArray()
    .map((r) => {
      const o = r.toJSON() as Record<string, unknown>;
      for (const k of Object.keys(o)) if (o[k] && typeof o[k] === "object") o[k] = [...(o[k] as Iterable<unknown>)];
      return o;
    });
}

describe("datasets", () => {
  it("create (the eight types), list, get, delete; 422 for an unknown type", async () => {
    const bad = await rawCall(d.client, "POST", `${base()}/datasets`, { name: "x", filter: {}, type: "AUDIO" });
    expect(bad.status).toBe(422);
    expect((bad.json as any).detail[0].loc).toEqual(["body", "type"]);
    const c = await rawCall(d.client, "POST", "/api/v1/datasets", {
      name: "tmp",
      filter: { labels: [] },
      type: "FIELD_STREAMING",
    });
    expect(c.status).toBe(201);
    const id = (c.json as any).id;
    const listed = (await rawCall(d.client, "GET", `${base()}/datasets`)).json as any;
    expect(listed.datasets.map((x: any) => x.id)).toContain(id);
    expect((await rawCall(d.client, "GET", `${base()}/dataset/${id}`)).json).toMatchObject({
      name: "tmp",
      type: "FIELD_STREAMING",
      partitions: [],
      format: "ARROW",
    });
    expect((await rawCall(d.client, "DELETE", `/api/v1/dataset/${id}`)).status).toBe(204);
    expect((await rawCall(d.client, "GET", `${base()}/dataset/${id}`)).status).toBe(404);
  });

  it("uploads partitions, deletes one and all", async () => {
    const id = (
      (await rawCall(d.client, "POST", `${base()}/datasets`, { name: "up", filter: {}, type: "PARAGRAPH_STREAMING" })).json as any
    ).id;
    expect(
      (
        await rawCall(d.client, "PUT", `${base()}/dataset/${id}/partition/a-1`, Buffer.from("arrow bytes"), {
          "content-type": "application/octet-stream",
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await rawCall(d.client, "PUT", `/api/v1/dataset/${id}/partition/b_2`, Buffer.from("more"), {
          "content-type": "application/octet-stream",
        })
      ).status,
    ).toBe(204);
    expect(((await rawCall(d.client, "GET", `${base()}/dataset/${id}`)).json as any).partitions).toEqual([
      { id: "a-1", size: 11 },
      { id: "b_2", size: 4 },
    ]);
    expect((await rawCall(d.client, "PUT", `${base()}/dataset/${id}/partition/no.dots`, Buffer.from("x"))).status).toBe(422);
    expect((await rawCall(d.client, "DELETE", `${base()}/dataset/${id}/partition/a-1`)).status).toBe(204);
    expect(((await rawCall(d.client, "GET", `${base()}/dataset/${id}`)).json as any).partitions).toEqual([
      { id: "b_2", size: 4 },
    ]);
    expect((await rawCall(d.client, "DELETE", `${base()}/dataset/${id}/partitions`)).status).toBe(204);
    expect(((await rawCall(d.client, "GET", `${base()}/dataset/${id}`)).json as any).partitions).toEqual([]);
  });

  it("PARAGRAPH_CLASSIFICATION partitions hold exactly the box's labelled paragraphs with their labels", async () => {
    const id = (
      (
        await rawCall(d.client, "POST", `${base()}/datasets`, {
          name: "pc",
          filter: { labels: ["auto", "/l/mood"] },
          type: "PARAGRAPH_CLASSIFICATION",
        })
      ).json as any
    ).id;
    const g = await rawCall(d.client, "POST", `${base()}/dataset/${id}/generate`, { kb_id: kbid, rows_per_partition: 4 });
    expect(g.status).toBe(200);
    const parts = (g.json as any).partitions as { id: string; rows: number }[];
    expect(parts.length).toBeGreaterThan(1);
    const got = (await Promise.all(parts.map((p) => partitionRows(id, p.id)))).flat();
    // What the store holds: every paragraph with a label (on the row, or the user's fieldmetadata).
    const store = await d.daemon.services.store.kb(kbid);
    const want: Record<string, unknown>[] = [];
    for (const rid of Object.values(rids)) {
      for (const r of await store.paragraphs.resourceRows(rid)) {
        const labels = [...r.labels];
        if (r.text.startsWith("Cats purr")) labels.push("/l/mood/calm");
        if (labels.length) want.push({ paragraph_id: r.id, text: r.text, labels });
      }
    }
    const byId = (a: any, b: any) => a.paragraph_id.localeCompare(b.paragraph_id);
    expect(got.sort(byId)).toEqual(want.sort(byId));
    expect(got.length).toBe(8);
    expect(got.find((r: any) => r.text.startsWith("Cats purr"))?.labels).toEqual(["/l/auto/pets", "/l/mood/calm"]);
    // A filter on one labelset keeps only its labels and rows.
    const only = (
      (
        await rawCall(d.client, "POST", `${base()}/datasets`, {
          name: "mood",
          filter: { labels: ["/l/mood/calm"] },
          type: "PARAGRAPH_CLASSIFICATION",
        })
      ).json as any
    ).id;
    const g2 = (await rawCall(d.client, "POST", `${base()}/dataset/${only}/generate`, { kb_id: kbid })).json as any;
    expect(await partitionRows(only, g2.partitions[0].id)).toEqual([expect.objectContaining({ labels: ["/l/mood/calm"] })]);

    // The same dataset as Parquet: files that read back (parquet-wasm) with the same rows.
    const pq = (
      await rawCall(d.client, "POST", `${base()}/datasets`, {
        name: "pc-parquet",
        filter: { labels: ["auto", "/l/mood"] },
        type: "PARAGRAPH_CLASSIFICATION",
        format: "PARQUET",
      })
    ).json as any;
    expect((await rawCall(d.client, "GET", `${base()}/dataset/${pq.id}`)).json).toMatchObject({ format: "PARQUET" });
    const gp = (await rawCall(d.client, "POST", `${base()}/dataset/${pq.id}/generate`, { kb_id: kbid, rows_per_partition: 4 }))
      .json as any;
    expect(gp.partitions.map((p: any) => p.rows)).toEqual(parts.map((p) => p.rows));
    const head = await d.client.raw({ method: "GET", path: `${base()}/dataset/${pq.id}/partition/p0000` });
    expect(head.headers["content-type"]).toBe("application/vnd.apache.parquet");
    for await (const _ of head.body);
    const fromParquet = (await Promise.all(gp.partitions.map((p: any) => partitionRows(pq.id, p.id, true)))).flat();
    expect(fromParquet.sort(byId)).toEqual(want.sort(byId));
    const badFormat = await rawCall(d.client, "POST", `${base()}/datasets`, {
      name: "x",
      filter: {},
      type: "FIELD_STREAMING",
      format: "CSV",
    });
    expect(badFormat.status).toBe(422);
    expect((badFormat.json as any).detail[0].loc).toEqual(["body", "format"]);
  });

  it("other shapes: field classification, sentence classification, paragraph streaming; IMAGE_CLASSIFICATION is refused", async () => {
    const make = async (type: string, filter: Record<string, unknown> = {}) => {
      const id = ((await rawCall(d.client, "POST", `${base()}/datasets`, { name: type, filter, type })).json as any).id;
      const g = await rawCall(d.client, "POST", `${base()}/dataset/${id}/generate`, { kb_id: kbid });
      return { id, g };
    };
    const fc = await make("FIELD_CLASSIFICATION", { labels: ["topic"] });
    const fcRows = await partitionRows(fc.id, (fc.g.json as any).partitions[0].id);
    expect(fcRows.map((r: any) => [r.field_id.split("/").slice(1).join("/"), r.labels])).toEqual([
      ["a/summary", ["/l/topic/planning"]],
      ["a/title", ["/l/topic/planning"]],
      ["t/body", ["/l/topic/planning"]],
    ]);
    const sc = await make("SENTENCE_CLASSIFICATION", { labels: ["mood"] });
    expect((await partitionRows(sc.id, (sc.g.json as any).partitions[0].id)).map((r: any) => r.text)).toEqual([
      "Cats purr because it calms them and helps healing.",
      "Purring also signals contentment.",
    ]);
    const ps = await make("PARAGRAPH_STREAMING");
    expect((await partitionRows(ps.id, (ps.g.json as any).partitions[0].id)).length).toBeGreaterThan(8);
    const img = await make("IMAGE_CLASSIFICATION");
    expect(img.g.status).toBe(422);
    expect((img.g.json as any).detail[0].msg).toMatch(/not supported here/);
  });

  it("dataset tasks: none listed, a start answers 422 saying why, an id 404; an unknown dataset 404", async () => {
    const id = (
      (await rawCall(d.client, "POST", "/api/v1/datasets", { name: "t", filter: {}, type: "PARAGRAPH_STREAMING" })).json as any
    ).id;
    expect((await rawCall(d.client, "GET", `/api/v1/dataset/${id}/tasks`)).json).toEqual({
      tasks: [],
      running: [],
      configs: [],
      done: [],
    });
    const start = await rawCall(d.client, "POST", `/api/v1/dataset/${id}/task/start`, { name: "labeler", parameters: LABELER });
    expect(start.status).toBe(422);
    expect((start.json as any).detail[0]).toMatchObject({
      loc: ["body", "name"],
      msg: expect.stringMatching(/tasks on datasets are not supported here: kbox runs labeler on a knowledge box/),
    });
    const inspect = await rawCall(d.client, "GET", `/api/v1/dataset/${id}/task/abc/inspect`);
    expect(inspect.status).toBe(404);
    expect((inspect.json as any).detail).toMatch(/no task runs on a dataset here/);
    expect((await rawCall(d.client, "POST", `/api/v1/dataset/${id}/task/abc/stop`)).status).toBe(404);
    expect((await rawCall(d.client, "DELETE", `/api/v1/dataset/${id}/task/abc`)).status).toBe(404);
    const other = "00000000-0000-4000-8000-000000000000";
    expect((await rawCall(d.client, "POST", `/api/v1/dataset/${other}/task/start`, { name: "labeler" })).status).toBe(404);
  });
});
