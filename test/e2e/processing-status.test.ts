import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as processing from "../../src/api/processing.js";
import * as api from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { CountingEmbedder, waitIdle } from "./ingest-helpers.js";

// The processing status answers from an index kept with the resources table (daemon/store/resource-index.ts):
// its pages must be those of a pass over every stored resource, before and after a restart.

const home = tempHome();
let d: TestDaemon;
let kbid: string;

async function start(): Promise<void> {
  d = await startTestDaemon({ env: OFFLINE, home, keepHome: true });
  d.daemon.services.models.registerEmbedder("test:trigram", new CountingEmbedder());
}

beforeAll(async () => {
  await start();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "status-index" } })).uuid;
});
afterAll(async () => {
  await d.stop();
  rmSync(home, { recursive: true, force: true });
});

type Status = processing.ProcessingStatusQuery["status"];

/** What the route should answer: every stored resource of those statuses, oldest first by (created, id). */
async function expected(status: Status): Promise<{ ids: string[]; totals: Record<string, number> }> {
  const store = await d.daemon.services.store.kb(kbid);
  const all = [...store.resources.values()];
  const totals: Record<string, number> = {};
  for (const r of all) totals[r.metadata.status] = (totals[r.metadata.status] ?? 0) + 1;
  const ids = all
    .filter((r) => !status?.length || status.includes(r.metadata.status))
    .sort((a, b) => (a.created < b.created || (a.created === b.created && a.id < b.id) ? -1 : 1))
    .map((r) => r.id);
  return { ids, totals };
}

/** Every page of the route (pages of `limit`, by cursor), checking each page's size and the last cursor. */
async function paged(status: Status, limit: number): Promise<{ ids: string[]; totals: Record<string, number>[] }> {
  const ids: string[] = [];
  const totals: Record<string, number>[] = [];
  let cursor: string | undefined;
  do {
    const page = await d.client.call(processing.processingStatus, { params: { kbid }, query: { status, limit, cursor } });
    ids.push(...page.results.map((r) => r.resource_id));
    totals.push(page.totals);
    for (const r of page.results) if (status?.length) expect(status).toContain(r.status);
    // A page is full unless it is the last one, which says so with a null cursor.
    if (page.cursor) expect(page.results).toHaveLength(limit);
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return { ids, totals };
}

async function pagesAgree(): Promise<void> {
  const filters: Status[] = [undefined, ["PROCESSED"], ["ERROR"], ["ERROR", "PROCESSED"], ["PENDING"], ["EXPIRED", "BLOCKED"]];
  for (const status of filters) {
    const want = await expected(status);
    for (const limit of [1, 3, 1000]) {
      const got = await paged(status, limit);
      expect(got.ids, `status ${status} limit ${limit}`).toEqual(want.ids);
      for (const t of got.totals) expect(t).toEqual(want.totals);
    }
  }
}

describe("processing status (from the resource index)", () => {
  it("pages as a pass over every resource would, with and without status filters, before and after a restart", async () => {
    const text = (i: number) => ({ texts: { t: { body: `Note number ${i} about processing.` } } });
    const broken = { files: { bin: { file: { filename: "blob.bin", payload: randomBytes(512).toString("base64") } } } };
    // Created concurrently: their records may be put in another order than their creation times.
    const created: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const made = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          d.client.call(api.createResource, { params: { kbid }, body: i === 2 ? broken : text(batch * 6 + i) }),
        ),
      );
      created.push(...made.map((m) => m.uuid));
    }
    await waitIdle(d.client, kbid);
    const first = await expected(undefined);
    expect(first.totals).toEqual({ PROCESSED: 20, ERROR: 4 });
    await pagesAgree();

    // Deleted resources leave the pages and the totals; a reprocessed one changes status and back.
    await d.client.call(api.deleteResource.byId, { params: { kbid, rid: created[0] } });
    await d.client.call(api.deleteResource.byId, { params: { kbid, rid: created[7] } });
    await d.client.call(api.reprocessResource.byId, { params: { kbid, rid: created[2] } });
    await waitIdle(d.client, kbid);
    expect((await expected(undefined)).totals).toEqual({ PROCESSED: 18, ERROR: 4 });
    await pagesAgree();

    // A restart builds the index from the stored records.
    await d.stop();
    await start();
    await pagesAgree();
    expect((await expected(undefined)).ids).toHaveLength(22);
  });

  it("a cursor past the end gives an empty last page; a bad cursor is a 422", async () => {
    const all = await d.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1000 } });
    const last = all.results[all.results.length - 1];
    const page = await d.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1 } });
    expect(page.cursor).not.toBeNull();
    const end = Buffer.from(JSON.stringify([last.created, last.resource_id])).toString("base64url");
    const after = await d.client.call(processing.processingStatus, { params: { kbid }, query: { cursor: end } });
    expect(after.results).toEqual([]);
    expect(after.cursor).toBeNull();
    await expect(
      d.client.call(processing.processingStatus, { params: { kbid }, query: { cursor: "nope" } }),
    ).rejects.toMatchObject({ status: 422 });
  });
});
