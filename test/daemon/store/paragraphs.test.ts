import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeArrowTable } from "@lancedb/lancedb";
import { describe, expect, it } from "vitest";
import { arrow } from "../../../daemon/store/arrow.js";
import { openDb } from "../../../daemon/store/db.js";
import { ReplaceJournal } from "../../../daemon/store/paragraph-journal.js";
import { type ParagraphRow, ParagraphStore } from "../../../daemon/store/paragraphs.js";

function row(rid: string, field: string, start: number, text: string): ParagraphRow {
  return {
    id: `${rid}/${field}/${start}-${start + text.length}`,
    rid,
    field,
    field_type: "text",
    split: "",
    start,
    end: start + text.length,
    page: 0,
    idx: 0,
    kind: "TEXT",
    is_table: false,
    labels: [],
    facets: ["/l/topic/a"],
    text,
    lang: "en",
    path: "",
    created: 1,
    modified: 1,
    hidden: false,
    groups: [],
    hash: text,
  };
}

describe("ParagraphStore", () => {
  it("adds a vectorset's column once when several first embeddings ask for it at the same time", async () => {
    const db = await openDb(join(mkdtempSync(join(tmpdir(), "kbox-par-")), "db"));
    const store = await ParagraphStore.open(db);
    // Before: the second addColumns failed ("column already exists") and its resource's field went to ERROR.
    await Promise.all(Array.from({ length: 4 }, () => store.ensureVectorset("mini", 8)));
    expect(store.vectorColumns().get("mini")).toBe(8);
    await expect(store.ensureVectorset("mini", 16)).rejects.toThrow(/dimension 8, not 16/);
  });

  it("replaces a field's paragraphs atomically and keeps other fields", async () => {
    const db = await openDb(join(mkdtempSync(join(tmpdir(), "kbox-par-")), "db"));
    const store = await ParagraphStore.open(db);
    await Promise.all([
      store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "alpha"), row("r1", "t/a", 6, "beta")]),
      store.replaceField("r1", "t/b", [row("r1", "t/b", 0, "gamma")]),
    ]);
    expect(await store.count()).toBe(3);
    await store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "delta")]);
    expect(await store.count()).toBe(2);
    expect(await store.count("field = 't/b'")).toBe(1);
    await store.ensureVectorset("default", 4);
    const r = row("r2", "t/a", 0, "vec");
    r.vectors = { default: [1, 0, 0, 0] };
    await store.replaceField("r2", "t/a", [r]);
    expect((await store.existingVectors("r2", "t/a", "default")).get("vec")).toEqual([1, 0, 0, 0]);
    await store.deleteResource("r1");
    expect(await store.count()).toBe(1);
  });

  it("never shows readers a field between the two commits of its replace", async () => {
    const db = await openDb(join(mkdtempSync(join(tmpdir(), "kbox-par-")), "db"));
    const store = await ParagraphStore.open(db);
    const set = (n: number, tag: string) => Array.from({ length: n }, (_, i) => row("r1", "t/a", i * 100, `${tag} ${i}`));
    await store.replaceField("r1", "t/a", set(3, "three"));
    let writing = true;
    const seen = new Set<number>();
    const reader = (async () => {
      while (writing) seen.add(await store.count("field = 't/a'"));
    })();
    for (let i = 0; i < 20; i++) await store.replaceField("r1", "t/a", i % 2 ? set(3, `three${i}`) : set(5, `five${i}`));
    writing = false;
    await reader;
    // Only whole generations: 3 or 5 paragraphs, never 0 (after the delete) nor 8 (old + new).
    expect([...seen].sort()).toEqual([3, 5]);
  });

  it("rolls a replace interrupted between its two commits forward on the next open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbox-par-"));
    const journal = join(dir, "paragraphs.journal");
    const store = await ParagraphStore.open(await openDb(join(dir, "db")), {}, journal);
    await store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "old one"), row("r1", "t/a", 9, "old two")]);
    await store.replaceField("r2", "t/a", [row("r2", "t/a", 0, "other")]);
    // What a crash right after the first commit leaves behind: the journal written, old rows deleted.
    const where = "rid IN ('r1') AND ((rid = 'r1' AND field = 't/a'))";
    await store.exclusive(async (t) => {
      await new ReplaceJournal(journal).write(
        where,
        arrow.tableToIPC(makeArrowTable([store.toArrowRow(row("r1", "t/a", 0, "new"))], { schema: await t.schema() }), "file"),
      );
      await t.delete(where);
    });
    const reopened = await ParagraphStore.open(await openDb(join(dir, "db")), {}, journal);
    const rows = await reopened.table.query().select(["rid", "text"]).toArray();
    expect(rows.map((r) => `${r.rid}:${r.text}`).sort()).toEqual(["r1:new", "r2:other"]);
    expect(existsSync(journal)).toBe(false);
  });

  it("writes a new resource's fields with one append, then replaces them like any other", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbox-par-"));
    const journal = join(dir, "paragraphs.journal");
    const store = await ParagraphStore.open(await openDb(join(dir, "db")), {}, journal);
    store.markNew("r1");
    const before = await store.table.version();
    await Promise.all([
      store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "alpha")]),
      store.replaceField("r1", "t/b", [row("r1", "t/b", 0, "beta")]),
    ]);
    expect((await store.table.version()) - before).toBe(1); // one add: no delete commit
    // A second write of the same field must replace, not add beside the first.
    await store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "alpha two"), row("r1", "t/a", 20, "alpha three")]);
    expect((await store.table.query().select(["text"]).toArray()).map((r) => r.text).sort()).toEqual([
      "alpha three",
      "alpha two",
      "beta",
    ]);
    // Deleted, then written again under the same id: the old rows are gone and stay gone.
    await store.deleteResource("r1");
    await store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "again")]);
    expect((await store.table.query().select(["text"]).toArray()).map((r) => r.text)).toEqual(["again"]);
    expect(existsSync(journal)).toBe(false);
  });

  it("does not trust a restart: ids are not fresh after reopening", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbox-par-"));
    const store = await ParagraphStore.open(await openDb(join(dir, "db")));
    store.markNew("r1");
    await store.replaceField("r1", "t/a", [row("r1", "t/a", 0, "first")]);
    const reopened = await ParagraphStore.open(await openDb(join(dir, "db")));
    await reopened.replaceField("r1", "t/a", [row("r1", "t/a", 0, "second")]);
    expect((await reopened.table.query().select(["text"]).toArray()).map((r) => r.text)).toEqual(["second"]);
  });
});
