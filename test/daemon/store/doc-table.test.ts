import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as lancedb from "@lancedb/lancedb";
import { describe, expect, it, vi } from "vitest";
import { openDb, sqlIntegers } from "../../../daemon/store/db.js";
import { countRecords, DocTable, GroupedDocTable } from "../../../daemon/store/doc-table.js";

const home = () => join(mkdtempSync(join(tmpdir(), "kbox-doc-")), "db");
type Raw = { table: { query(): { select(c: string[]): { toArray(): Promise<Record<string, unknown>[]> } } } };
/** Every stored row's id, older versions included. */
const ids = async (t: Raw) => (await t.table.query().select(["id"]).toArray()).map((r) => r.id as string).sort();
/** Old versions are deleted in the background: wait until the rows are exactly these. */
const settlesTo = (t: Raw, want: string[]) =>
  vi.waitFor(async () => expect(await ids(t)).toEqual(want), { timeout: 5000, interval: 100 });

/** The filters of the queries a document table runs from now on (its reads of the table). */
function filtersOf(t: unknown): string[] {
  const raw = (t as { table: { query(): { where(w: string): unknown } } }).table;
  const reads: string[] = [];
  const query = raw.query.bind(raw);
  raw.query = () => {
    const q = query();
    const where = q.where.bind(q);
    q.where = (w: string) => {
      reads.push(w);
      return where(w);
    };
    return q;
  };
  return reads;
}

describe("DocTable", () => {
  it("every put appends a version; readers see the latest, before and after a reopen; old versions go", async () => {
    const path = home();
    const t = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    await Promise.all([t.put("a", { v: 1 }), t.put("b", { v: 1 })]);
    await Promise.all([t.put("a", { v: 2 }), t.put("c", { v: 1 })]);
    await t.delete("b");
    await t.put("b", { v: 3 });
    // A reopen while "a" still has two versions (as after a kill -9 before the sweep) reads the latest.
    const early = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    expect(early.get("a")).toEqual({ v: 2 });
    await settlesTo(t, ["a", "b", "c"]);
    const again = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    expect([again.get("a"), again.get("b"), again.get("c")]).toEqual([{ v: 2 }, { v: 3 }, { v: 1 }]);
    await again.put("a", { v: 4 });
    await settlesTo(again, ["a", "b", "c"]);
    expect((await DocTable.open<{ v: number }>(await openDb(path), "docs")).get("a")).toEqual({ v: 4 });
  });

  it("opens a table written before versions (no seq column) and keeps its documents", async () => {
    const path = home();
    const db = await openDb(path);
    const { arrow } = await import("../../../daemon/store/arrow.js");
    const { Field, Schema, Utf8 } = arrow;
    const old = new Schema([
      new Field("id", new Utf8(), false),
      new Field("grp", new Utf8(), false),
      new Field("doc", new Utf8(), false),
    ]);
    const table = await db.createEmptyTable("docs", old);
    await table.add([{ id: "a", grp: "", doc: JSON.stringify({ v: 1 }) }]);
    const t = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    expect(t.get("a")).toEqual({ v: 1 });
    await t.put("a", { v: 2 });
    await settlesTo(t, ["a"]);
    expect((await DocTable.open<{ v: number }>(await openDb(path), "docs")).get("a")).toEqual({ v: 2 });
  });

  it("stores documents zstd-compressed in pages (under half the disk of an older table), and keeps writing an older table", async () => {
    const { arrow } = await import("../../../daemon/store/arrow.js");
    const { Field, Int64, Schema, Utf8 } = arrow;
    const doc = (i: number) => ({
      slug: `notes/${i % 40}/note-${i}.md`,
      title: `Note ${i} on the keeper's lamp`,
      origin: { path: `/home/me/notes/${i % 40}/note-${i}.md`, source_id: "folder" },
      metadata: { status: "PROCESSED", language: "en", languages: ["en"] },
      fields: { "f/file": { status: "PROCESSED", hash: `sha256:${(i * 2654435761).toString(16).padStart(64, "0")}` } },
    });
    const dataBytes = (path: string) =>
      readdirSync(join(path, "docs.lance", "data")).reduce((n, f) => n + statSync(join(path, "docs.lance", "data", f)).size, 0);
    const fill = async (t: DocTable<ReturnType<typeof doc>>) => {
      for (let b = 0; b < 10; b++)
        await Promise.all(Array.from({ length: 100 }, (_, k) => t.put(`r${b * 100 + k}`, doc(b * 100 + k))));
    };
    const now = home();
    const t = await DocTable.open<ReturnType<typeof doc>>(await openDb(now), "docs");
    await fill(t);
    // As a table of an older kbox: the same columns, no compression asked (Lance's default format).
    const before = home();
    const db = await openDb(before);
    const plain = new Schema([
      new Field("id", new Utf8(), false),
      new Field("grp", new Utf8(), false),
      new Field("doc", new Utf8(), false),
      new Field("seq", new Int64(), false),
    ]);
    await db.createEmptyTable("docs", plain);
    const old = await DocTable.open<ReturnType<typeof doc>>(await openDb(before), "docs");
    await fill(old);
    expect(dataBytes(now) * 2).toBeLessThan(dataBytes(before));
    for (const path of [now, before]) {
      const again = await DocTable.open<ReturnType<typeof doc>>(await openDb(path), "docs");
      expect(again.get("r777")).toEqual(doc(777));
    }
  });

  it("deletes the versions it superseded by number, without reading the table's ids", async () => {
    const t = await DocTable.open<{ v: number }>(await openDb(home()), "docs");
    const reads = filtersOf(t);
    const raw = (t as unknown as { table: { delete(w: string): Promise<unknown> } }).table;
    const deletes: string[] = [];
    const del = raw.delete.bind(raw);
    raw.delete = (w: string) => {
      deletes.push(w);
      return del(w);
    };
    const ids = Array.from({ length: 600 }, (_, i) => `d${i}`);
    await Promise.all(ids.map((id) => t.put(id, { v: 1 })));
    await Promise.all(ids.map((id) => t.put(id, { v: 2 })));
    await Promise.all(ids.slice(0, 10).map((id) => t.put(id, { v: 3 })));
    await settlesTo(t as unknown as Raw, [...ids].sort());
    expect(reads.filter((w) => w.startsWith("id IN"))).toEqual([]);
    expect(t.get("d3")).toEqual({ v: 3 });
    expect(t.get("d300")).toEqual({ v: 2 });
    // Versions written together are superseded together: deleted as ranges, not a list of 610 numbers.
    expect(deletes.length).toBeGreaterThan(0);
    expect(deletes.every((w) => w.length < 200 && !w.includes(" IN "))).toBe(true);
  });

  it("turns integers into ranges of consecutive numbers and IN lists of the others, a bounded size a filter", () => {
    expect(sqlIntegers("seq", [])).toEqual([]);
    expect(sqlIntegers("seq", [7, 3, 4, 5, 9, 4])).toEqual(["(seq >= 3 AND seq <= 5)", "seq IN (7,9)"]);
    const scattered = sqlIntegers(
      "seq",
      Array.from({ length: 12_000 }, (_, i) => 2 * i),
    );
    expect(scattered.map((w) => w.split(",").length)).toEqual([5000, 5000, 2000]);
    const runs = sqlIntegers("seq", Array.from({ length: 100 }, (_, i) => [10 * i, 10 * i + 1]).flat());
    expect(runs.map((w) => w.split(" OR ").length)).toEqual([64, 36]);
    expect(runs[1].startsWith("(seq >= 640 AND seq <= 641)")).toBe(true);
  });

  it("counts documents, not the versions a sweep has not yet deleted; other tables by rows", async () => {
    const db = await openDb(home());
    const t = await DocTable.open<{ v: number }>(db, "docs");
    const doc = (id: string, seq: number) => ({ id, grp: "", doc: "{}", seq: BigInt(seq) });
    await t.table.add([doc("a", 1), doc("a", 2), doc("b", 3)]);
    expect(await countRecords(t.table)).toBe(2);
    const { arrow } = await import("../../../daemon/store/arrow.js");
    const plain = await db.createEmptyTable("rows", new arrow.Schema([new arrow.Field("id", new arrow.Utf8(), false)]));
    await plain.add([{ id: "x" }, { id: "x" }]);
    expect(await countRecords(plain)).toBe(2);
  });

  it("tells an observer of the documents it holds, then of every put, delete and other daemon's commit", async () => {
    const path = home();
    const t = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    await Promise.all([t.put("a", { v: 1 }), t.put("b", { v: 1 })]);
    // A second daemon sharing the table (data on object storage): it learns of ours by refreshing.
    const shared = await DocTable.open<{ v: number }>(
      await openDb(path, undefined, { storageOptions: {}, refreshMs: 0 }),
      "docs",
      60_000,
    );
    const seen: [string, unknown, unknown][] = [];
    shared.observe((id, before, after) => seen.push([id, before, after]));
    expect(seen.sort()).toEqual([
      ["a", undefined, { v: 1 }],
      ["b", undefined, { v: 1 }],
    ]);
    seen.length = 0;
    await shared.put("c", { v: 1 });
    await shared.put("c", { v: 2 });
    await shared.delete("c");
    await shared.delete("nothing"); // nothing changed: nothing told
    expect(seen).toEqual([
      ["c", undefined, { v: 1 }],
      ["c", { v: 1 }, { v: 2 }],
      ["c", { v: 2 }, undefined],
    ]);
    seen.length = 0;
    await Promise.all([t.put("a", { v: 5 }), t.delete("b")]);
    await shared.refresh();
    expect(seen.sort()).toEqual([
      ["a", { v: 1 }, { v: 5 }],
      ["b", { v: 1 }, undefined],
    ]);
    t.close();
    shared.close();
  });
});

describe("GroupedDocTable", () => {
  it("serves the field records of thousands of resources just created from memory, and big ones from the table", async () => {
    const t = await GroupedDocTable.open<{ v: number; s?: string }>(await openDb(home()), "fields");
    const reads = filtersOf(t);
    const groups = Array.from({ length: 3000 }, (_, i) => `r${i}`);
    for (const g of groups) t.markNew(g);
    await Promise.all(groups.map((g, i) => t.put(`${g}/f/file`, g, { v: i })));
    // A field a group held whole does not have needs no query either.
    const got = await t.docs([...groups.map((g) => [g, `${g}/f/file`] as const), ["r0", "r0/a/title"]]);
    expect(got.get("r2999/f/file")).toEqual({ v: 2999 });
    expect(got.size).toBe(3000);
    expect(got.has("r0/a/title")).toBe(false);
    expect(reads).toEqual([]);
    // Past the byte budget (32 MiB) the oldest groups leave memory: their read queries the table.
    const big = "x".repeat(9 * 2 ** 20);
    for (const g of ["b1", "b2", "b3", "b4", "b5"]) {
      t.markNew(g);
      await t.put(`${g}/t/text`, g, { v: 0, s: big });
    }
    const both = await t.docs([
      ["b1", "b1/t/text"],
      ["b5", "b5/t/text"],
    ]);
    expect(both.get("b1/t/text")?.s).toHaveLength(big.length);
    expect(both.get("b5/t/text")?.s).toHaveLength(big.length);
    expect(reads).toEqual([expect.stringMatching(/^id IN \('b1\/t\/text'\)$/)]);
    t.close();
  });

  it("reads a document put lately back from memory (a saved file's field record, read by its ingestion)", async () => {
    const db = await openDb(home());
    const t = await GroupedDocTable.open<{ v: number }>(db, "fields");
    // Resources of an earlier run: their groups are not held whole.
    await Promise.all(["r1", "r2", "r3"].map((g, i) => t.put(`${g}/f/file`, g, { v: i })));
    await t.put("r1/a/title", "r1", { v: 10 });
    const again = await GroupedDocTable.open<{ v: number }>(db, "fields");
    // Reads of documents (a sweep of old versions reads ids and versions only).
    const reads: string[] = [];
    const raw = (again as unknown as { table: { query(): { where(w: string): { select(c: string[]): unknown } } } }).table;
    const query = raw.query.bind(raw);
    raw.query = () => {
      const q = query();
      const where = q.where.bind(q);
      q.where = (w: string) => {
        const sel = where(w);
        const select = sel.select.bind(sel);
        sel.select = (c: string[]) => {
          if (c.includes("doc")) reads.push(w);
          return select(c);
        };
        return sel;
      };
      return q;
    };
    await again.put("r1/f/file", "r1", { v: 100 });
    const saved = again.put("r2/f/file", "r2", { v: 200 }); // read while its commit runs: waits for it
    const got = await again.docs([
      ["r1", "r1/f/file"],
      ["r2", "r2/f/file"],
    ]);
    await saved;
    expect(Object.fromEntries(got)).toEqual({ "r1/f/file": { v: 100 }, "r2/f/file": { v: 200 } });
    expect(await again.get("r2/f/file")).toEqual({ v: 200 }); // the record a save replaces
    expect(reads).toEqual([]);
    // The others come from one query, and a copy is returned: changing it changes nothing kept.
    const mixed = await again.docs([
      ["r1", "r1/f/file"],
      ["r1", "r1/a/title"],
      ["r3", "r3/f/file"],
      ["r9", "r9/f/file"],
    ]);
    expect(Object.fromEntries(mixed)).toEqual({ "r1/f/file": { v: 100 }, "r1/a/title": { v: 10 }, "r3/f/file": { v: 2 } });
    expect(reads).toEqual(["id IN ('r1/a/title', 'r3/f/file', 'r9/f/file')"]);
    mixed.get("r1/f/file")!.v = -1;
    expect((await again.docs([["r1", "r1/f/file"]])).get("r1/f/file")).toEqual({ v: 100 });
    // Deleted documents and groups are not served from memory.
    await again.delete("r1/f/file");
    await again.deleteGroup("r2");
    const gone = await again.docs([
      ["r1", "r1/f/file"],
      ["r2", "r2/f/file"],
    ]);
    expect(gone.size).toBe(0);
    // A put whose commit fails leaves the committed version to be read.
    await again.put("r3/f/file", "r3", { v: 300 });
    again.close("closed for the test");
    await expect(again.put("r3/f/file", "r3", { v: 301 })).rejects.toThrow("closed for the test");
    expect((await again.docs([["r3", "r3/f/file"]])).get("r3/f/file")).toEqual({ v: 300 });
    expect(await again.get("r3/f/file")).toEqual({ v: 300 });
    expect(await again.get("r1/f/file")).toBeUndefined();
    t.close();
  });

  it("tells what a put replaced: from memory when put lately, else the table as it was just before the commit", async () => {
    const db = await openDb(home());
    const t = await GroupedDocTable.open<{ v: number }>(db, "fields");
    await t.put("r1/f/file", "r1", { v: 1 });
    await t.put("r2/f/file", "r2", { v: 2 });
    const fresh = await GroupedDocTable.open<{ v: number }>(db, "fields"); // nothing of them in memory
    const reads = filtersOf(fresh);
    // A put queued before counts: what the second one replaces is the first.
    const first = fresh.replacing("r1/f/file", "r1", { v: 10 });
    const second = fresh.replacing("r1/f/file", "r1", { v: 11 });
    expect(await (await first)()).toEqual({ v: 1 });
    expect(await (await second)()).toEqual({ v: 10 }); // put lately: from memory
    expect(reads).toEqual([]); // the version before the first commit is read through another handle
    // Read after later commits, still the version it replaced; and none for a new document.
    const read = await fresh.replacing("r2/f/file", "r2", { v: 20 });
    await fresh.put("r2/f/file", "r2", { v: 21 });
    expect(await read()).toEqual({ v: 2 });
    expect(await (await fresh.replacing("r3/f/file", "r3", { v: 3 }))()).toBeUndefined();
    // A group just created is held whole: what a put replaces there needs no read either.
    fresh.markNew("r4");
    expect(await (await fresh.replacing("r4/f/file", "r4", { v: 4 }))()).toBeUndefined();
    expect(await (await fresh.replacing("r4/f/file", "r4", { v: 5 }))()).toEqual({ v: 4 });
    expect(reads.filter((w) => w.includes("r4"))).toEqual([]);
    expect((await fresh.docs([["r2", "r2/f/file"]])).get("r2/f/file")).toEqual({ v: 21 });
    t.close();
    fresh.close();
  });

  it("looks documents and groups up through indexes on id and grp, built for a table from before them", async () => {
    const db = await openDb(home());
    const indexed = async (t: GroupedDocTable<unknown>) =>
      (await (t as unknown as { table: { listIndices(): Promise<{ columns: string[] }[]> } }).table.listIndices())
        .map((i) => i.columns[0])
        .sort();
    const t = await GroupedDocTable.open<{ v: number }>(db, "fields");
    expect(await indexed(t)).toEqual(["grp", "id"]);
    // A table written without them (an older kbox): opened, it gets them in the background.
    const old = await db.createTable("old_fields", [{ id: "r1/f/file", grp: "r1", doc: '{"v":1}', seq: 1n }]);
    expect(await old.listIndices()).toEqual([]);
    const reopened = await GroupedDocTable.open<{ v: number }>(db, "old_fields");
    expect((await reopened.docs([["r1", "r1/f/file"]])).get("r1/f/file")).toEqual({ v: 1 });
    await vi.waitFor(async () => expect(await indexed(reopened)).toEqual(["grp", "id"]), { timeout: 10_000 });
    // A read of one document is a look-up in the index.
    const plan = await (reopened as unknown as { table: lancedb.Table }).table.query().where("id = 'r1/f/file'").explainPlan();
    expect(plan).toContain("ScalarIndexQuery");
    t.close();
    reopened.close();
  });

  it("appends entries under new ids (a job's log) without reading the table for older versions", async () => {
    const t = await GroupedDocTable.open<{ n: number }>(await openDb(home()), "logs");
    const reads = filtersOf(t);
    await Promise.all(Array.from({ length: 700 }, (_, i) => t.append(`job:${String(i).padStart(9, "0")}`, "job", { n: i })));
    await new Promise((r) => setTimeout(r, 1500)); // past a sweep's second
    expect(reads.filter((w) => w.startsWith("id IN"))).toEqual([]);
    expect((await t.group("job")).size).toBe(700);
  });

  it("finds a document by text when a new version of it is written while it looks", async () => {
    const t = await GroupedDocTable.open<{ v: number; s: string }>(await openDb(home()), "fields");
    await t.put("r1/a", "r1", { v: 1, s: "needle" });
    // The scan reads version 1; processing writes version 2 (still holding the text) before the check of versions.
    const query = t.table.query.bind(t.table);
    let first = true;
    vi.spyOn(t.table, "query").mockImplementation(() => {
      const q = query();
      if (!first) return q;
      first = false;
      const toArray = q.toArray.bind(q);
      // The builder's calls return the query itself: its read is this one.
      return Object.assign(q, {
        toArray: async () => {
          const rows = await toArray();
          await t.put("r1/a", "r1", { v: 2, s: "needle" });
          return rows;
        },
      }) as typeof q;
    });
    expect(await t.containing("needle", 10)).toEqual([{ v: 2, s: "needle" }]);
  });

  it("reads the latest version of every document, by id, by group and by text; old versions go", async () => {
    const path = home();
    const t = await GroupedDocTable.open<{ v: number; s?: string }>(await openDb(path), "fields");
    t.markNew("r1");
    await Promise.all([t.put("r1/a", "r1", { v: 1 }), t.put("r1/b", "r1", { v: 1 }), t.put("r2/a", "r2", { v: 1, s: "needle" })]);
    await t.put("r1/a", "r1", { v: 2 }); // written before
    await t.put("r2/a", "r2", { v: 2 }); // not minted here: may have been on disk
    expect(await t.get("r2/a")).toEqual({ v: 2 });
    expect([...(await t.group("r1")).entries()].sort()).toEqual([
      ["r1/a", { v: 2 }],
      ["r1/b", { v: 1 }],
    ]);
    expect(await t.containing("needle", 10)).toEqual([]); // only an old version had it
    expect([...(await t.latest("id LIKE 'r2/%'")).values()]).toEqual([{ v: 2 }]);
    await settlesTo(t, ["r1/a", "r1/b", "r2/a"]);
    await t.deleteGroup("r1");
    await t.put("r1/a", "r1", { v: 3 });
    await t.delete("r2/a");
    await t.put("r2/a", "r2", { v: 3 });
    await t.put("r1/a", "r1", { v: 4 });
    expect(await t.get("r1/a")).toEqual({ v: 4 });
    // A reopen continues the versions: a put after it is the latest.
    const again = await GroupedDocTable.open<{ v: number }>(await openDb(path), "fields");
    expect(await again.get("r1/a")).toEqual({ v: 4 });
    await again.put("r1/a", "r1", { v: 5 });
    expect(await again.get("r1/a")).toEqual({ v: 5 });
    await settlesTo(again, ["r1/a", "r2/a"]);
  });

  it("serves a new group's first read from memory, then from disk, with the same documents", async () => {
    const t = await GroupedDocTable.open<{ v: number }>(await openDb(home()), "fields");
    t.markNew("r1");
    await Promise.all([t.put("r1/a", "r1", { v: 1 }), t.put("r1/b", "r1", { v: 1 })]);
    await t.put("r1/b", "r1", { v: 2 });
    const first = await t.group("r1");
    expect([...first.entries()].sort()).toEqual([
      ["r1/a", { v: 1 }],
      ["r1/b", { v: 2 }],
    ]);
    first.get("r1/a")!.v = 99; // a copy: the reader cannot change what is stored
    await t.put("r1/c", "r1", { v: 1 });
    await t.delete("r1/b");
    expect([...(await t.group("r1")).entries()].sort()).toEqual([
      ["r1/a", { v: 1 }],
      ["r1/c", { v: 1 }],
    ]);
    t.markNew("r2");
    await t.put("r2/a", "r2", { v: 1 });
    await t.deleteGroup("r2");
    expect((await t.group("r2")).size).toBe(0);
  });

  it("a group read sees that group's writes still queued, and a delete by id whose group it does not know", async () => {
    const t = await GroupedDocTable.open<{ v: number }>(await openDb(home()), "fields");
    await t.put("r1/a", "r1", { v: 1 });
    await t.put("r2/a", "r2", { v: 1 });
    // Not awaited: queued writes of r1, and a delete by id (its group unknown to the table).
    const writes = [t.put("r1/a", "r1", { v: 2 }), t.put("r1/b", "r1", { v: 1 })];
    expect([...(await t.group("r1")).entries()].sort()).toEqual([
      ["r1/a", { v: 2 }],
      ["r1/b", { v: 1 }],
    ]);
    // r2 has nothing queued: its read does not wait for r1's (it reads what is committed).
    const more = t.put("r1/c", "r1", { v: 1 });
    expect([...(await t.group("r2")).entries()]).toEqual([["r2/a", { v: 1 }]]);
    const del = t.delete("r2/a");
    expect((await t.group("r2")).size).toBe(0);
    await Promise.all([...writes, more, del]);
  });
});
