import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KbStore } from "../../daemon/store/index.js";
import type { ParagraphRow } from "../../daemon/store/paragraphs.js";
import * as bk from "../../src/api/backups.js";
import * as findApi from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as res from "../../src/api/resources.js";
import { ApiError } from "../../src/client/errors.js";
import { readAll } from "../../src/client/transport.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

let d: TestDaemon;
let kbid: string;
const acct = { account_id: "local" };
const PDF = Buffer.from("%PDF-1.4 a small document for the backup test\n");

beforeAll(async () => {
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "src", title: "Source" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

const store = (id: string): Promise<KbStore> => d.daemon.services.store.kb(id);

function paragraph(rid: string, i: number, text: string): ParagraphRow {
  return {
    id: `${rid}/t/bk/${i * 100}-${i * 100 + text.length}`,
    ...{ rid, field: "t/bk", field_type: "text", split: "", start: i * 100, end: i * 100 + text.length, page: 0, idx: i },
    ...{
      kind: "TEXT",
      is_table: false,
      labels: [],
      facets: [],
      text,
      lang: "en",
      path: "",
      created: 0,
      modified: 0,
      hidden: false,
      groups: [],
      hash: `h${i}`,
    },
  };
}

/** Add one resource through the API (with a file every third time) and index a few paragraphs for it. */
async function addResource(n: number): Promise<string> {
  const files =
    n % 3 === 0
      ? { doc: { file: { filename: "a.pdf", content_type: "application/pdf", payload: PDF.toString("base64") } } }
      : undefined;
  const body = { slug: `r-${n}`, title: `Resource ${n}`, texts: { body: { body: `text ${n}` } }, ...(files ? { files } : {}) };
  const { uuid } = await d.client.call(res.createResource, { params: { kbid }, body });
  const rows = Array.from({ length: 1 + (n % 4) }, (_, i) => paragraph(uuid, i, `paragraph ${i} of resource ${n}`));
  await (await store(kbid)).paragraphs.replaceField(uuid, "t/bk", rows);
  return uuid;
}

async function waitFinished(id: string): Promise<bk.Backup> {
  for (let i = 0; i < 600; i++) {
    const b = await d.client.call(bk.getBackup, { params: { ...acct, backup_id: id } });
    if (b.status !== "running") return b;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("backup did not finish");
}

/** Rows of one table of a store, as they were at `version`. */
async function rowsAt(
  s: KbStore,
  table: string,
  version: number | undefined,
  cols: string[],
): Promise<Record<string, unknown>[]> {
  const t = await s.db.openTable(table);
  if (version !== undefined) await t.checkout(version);
  const versioned = (await t.schema()).fields.some((f) => f.name === "seq"); // a document table: a row per version
  const rows = await t
    .query()
    .select(versioned ? [...cols, "seq"] : cols)
    .toArray();
  t.close();
  const latest = new Map<unknown, Record<string, unknown>>();
  for (const r of rows)
    if (!versioned || !latest.has(r.id) || Number(r.seq) > Number(latest.get(r.id)?.seq))
      latest.set(versioned ? r.id : latest.size, r);
  return [...latest.values()].map((r) => Object.fromEntries(cols.map((c) => [c, r[c]])));
}

const sortBy = <T>(xs: T[], key: (x: T) => string) => [...xs].sort((a, b) => key(a).localeCompare(key(b)));

async function listAll(id: string) {
  const out: res.ResourceOut[] = [];
  for (let page = 0; ; page++) {
    const r = await d.client.call(res.listResources, { params: { kbid: id }, query: { page, size: 100 } });
    out.push(...(r.resources as res.ResourceOut[]));
    if (r.pagination.last) return out;
  }
}

async function expectApiError(p: Promise<unknown>, status: number, detail?: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(status);
    if (detail) expect(JSON.stringify((e as ApiError).detail)).toMatch(detail);
    return;
  }
  throw new Error(`expected ${status}`);
}

describe("backups while a writer keeps writing", () => {
  let backup: bk.Backup;
  let restoredId: string;

  it("backs up a KB under concurrent writes and restores it as of the pinned versions", async () => {
    for (let n = 0; n < 20; n++) await addResource(n);
    await d.daemon.services.processing.idle(); // these are PROCESSED in the backup; later ones may not be
    let stop = false;
    let written = 20;
    const writer = (async () => {
      while (!stop) await addResource(written++);
    })();
    await new Promise((r) => setTimeout(r, 100));
    const { id } = await d.client.call(bk.createBackup, { params: acct, body: { kb_id: kbid } });
    backup = await waitFinished(id);
    await new Promise((r) => setTimeout(r, 100));
    stop = true;
    await writer;
    expect(backup.status).toBe("finished");
    expect(backup.size).toBeGreaterThan(0);
    expect(backup.kb_data).toMatchObject({ id: kbid, slug: "src", title: "Source" });

    restoredId = (
      await d.client.call(bk.restoreBackup, { params: { ...acct, backup_id: id }, body: { slug: "restored", title: "Restored" } })
    ).id;
    expect(restoredId).not.toBe(kbid);
    const kb = await d.client.call(kbs.getKb, { params: { kbid: restoredId } });
    expect(kb).toMatchObject({ slug: "restored", config: { title: "Restored" } });

    // The source kept growing past the backup.
    const src = await store(kbid);
    const srcAt = await rowsAt(src, "resources", backup.tables.resources, ["id", "doc"]);
    expect(src.resources.size).toBeGreaterThan(srcAt.length);
    expect(srcAt.length).toBeGreaterThanOrEqual(20);

    // Same resources (ids, slugs, titles) as the source at the pinned version.
    const want = sortBy(
      srcAt
        .map((r) => JSON.parse(r.doc as string) as { id: string; slug: string; title: string })
        .map(({ id, slug, title }) => ({ id, slug, title })),
      (r) => r.id,
    );
    const got = sortBy(
      (await listAll(restoredId)).map(({ id, slug, title }) => ({ id, slug, title })),
      (r) => r.id,
    );
    expect(got).toEqual(want);

    // Same paragraphs (ids and texts, hence counts per resource) as the source at its pinned version,
    // for the resources that were processed then; the restored box goes on processing the others.
    const settled = new Set(
      srcAt
        .map((r) => JSON.parse(r.doc as string) as { id: string; metadata: { status: string } })
        .filter((r) => r.metadata.status !== "PENDING")
        .map((r) => r.id),
    );
    const pinned = await rowsAt(src, "paragraphs", backup.tables.paragraphs, ["id", "rid", "text"]);
    expect(pinned.length).toBe(backup.paragraphs);
    const pWant = sortBy(
      pinned.filter((r) => settled.has(r.rid as string)),
      (r) => r.id as string,
    );
    const pGot = sortBy(
      (await rowsAt(await store(restoredId), "paragraphs", undefined, ["id", "rid", "text"])).filter((r) =>
        settled.has(r.rid as string),
      ),
      (r) => r.id as string,
    );
    expect(pWant.length).toBeGreaterThan(0);
    expect(pGot).toEqual(pWant);
  });

  it("answers find queries as the source did for the backed-up resources", async () => {
    const src = await store(kbid);
    const backedUp = new Set((await rowsAt(src, "resources", backup.tables.resources, ["id"])).map((r) => r.id as string));
    const ids = async (id: string, query: string, only?: Set<string>) => {
      const r = await d.client.call(findApi.find, { params: { kbid: id }, body: { query, features: ["keyword"], top_k: 200 } });
      const out: string[] = [];
      for (const [rid, resource] of Object.entries(r.resources)) {
        if (only && !only.has(rid)) continue;
        for (const f of Object.values(resource.fields)) out.push(...Object.keys(f.paragraphs));
      }
      return out.sort();
    };
    for (const q of ["5", "11", "13", "17"]) {
      const got = await ids(restoredId, q);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(await ids(kbid, q, backedUp));
    }
  });

  it("carries the blobs the pinned records reference", async () => {
    const s = await store(restoredId);
    let checked = 0;
    for (const r of s.resources.values()) {
      for (const f of (await s.fields.group(r.id)).values()) {
        if (!f.blob) continue;
        expect(await s.blobs.size(f.blob)).toBe(PDF.length);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("lists the backup, refuses a taken slug with 419, and the restored KB accepts writes", async () => {
    const list = await d.client.call(bk.listBackups, { params: acct });
    expect(list.map((b) => b.id)).toContain(backup.id);
    await expectApiError(
      d.client.call(bk.restoreBackup, { params: { ...acct, backup_id: backup.id }, body: { slug: "restored", title: "x" } }),
      419,
    );
    const before = (await store(restoredId)).resources.size;
    const { uuid } = await d.client.call(res.createResource, {
      params: { kbid: restoredId },
      body: { slug: "after-restore", title: "New" },
    });
    expect((await d.client.call(res.getResource.byId, { params: { kbid: restoredId, rid: uuid } })).title).toBe("New");
    expect((await store(restoredId)).resources.size).toBe(before + 1);
  });

  it("refuses a corrupted archive and creates nothing", async () => {
    const dl = await d.client.raw({ method: "GET", path: `/api/v1/account/local/backups/${backup.id}/download` });
    expect(dl.status).toBe(200);
    const archive = await readAll(dl.body);
    const bad = Buffer.from(archive);
    bad[Math.floor(bad.length / 2)] ^= 0xff;
    const kbsBefore = (await d.client.call(kbs.listKbs)).kbs.length;
    const dirsBefore = readdirSync(join(d.home, "data", "kbs")).length;
    const r = await d.client.raw({
      method: "POST",
      path: "/api/v1/kbs/import?slug=corrupt",
      headers: { "content-type": "application/gzip" },
      body: bad,
    });
    const text = (await readAll(r.body)).toString();
    expect(r.status).toBe(400);
    expect(text).toMatch(/corrupt/);
    expect((await d.client.call(kbs.listKbs)).kbs.length).toBe(kbsBefore);
    expect(readdirSync(join(d.home, "data", "kbs")).length).toBe(dirsBefore);
    expect(readdirSync(join(d.home, "data", "tmp", "backup"))).toEqual([]);

    // Truncated archives and foreign bytes are refused the same way.
    for (const body of [archive.subarray(0, archive.length >> 1), Buffer.from("not a tarball at all")]) {
      const t = await d.client.raw({ method: "POST", path: "/api/v1/kbs/import?slug=corrupt", body });
      const msg = (await readAll(t.body)).toString();
      expect(`${t.status} ${msg}`).toMatch(/^400 .*(corrupt|kbox backup)/);
    }
    expect((await d.client.call(kbs.listKbs)).kbs.length).toBe(kbsBefore);
  });

  it("deletes a backup and its archive", async () => {
    await d.client.call(bk.deleteBackup, { params: { ...acct, backup_id: backup.id } });
    expect(readdirSync(join(d.home, "data", "backups"))).toEqual([]);
    await expectApiError(d.client.call(bk.getBackup, { params: { ...acct, backup_id: backup.id } }), 404);
  });
});
