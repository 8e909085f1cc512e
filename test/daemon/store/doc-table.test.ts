import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../daemon/store/db.js";
import { DocTable, GroupedDocTable } from "../../../daemon/store/doc-table.js";

const home = () => join(mkdtempSync(join(tmpdir(), "kbox-doc-")), "db");
/** Every stored row's id, duplicates included (a put that appended beside an old row would show twice). */
const ids = async (t: { table: { query(): { select(c: string[]): { toArray(): Promise<Record<string, unknown>[]> } } } }) =>
  (await t.table.query().select(["id"]).toArray()).map((r) => r.id as string).sort();

describe("DocTable", () => {
  it("appends new ids and merges known ones: never two rows for one id, before or after a reopen", async () => {
    const path = home();
    const t = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    await Promise.all([t.put("a", { v: 1 }), t.put("b", { v: 1 })]);
    await Promise.all([t.put("a", { v: 2 }), t.put("c", { v: 1 })]);
    await t.delete("b");
    await t.put("b", { v: 3 });
    expect(await ids(t)).toEqual(["a", "b", "c"]);
    const again = await DocTable.open<{ v: number }>(await openDb(path), "docs");
    expect([again.get("a"), again.get("b"), again.get("c")]).toEqual([{ v: 2 }, { v: 3 }, { v: 1 }]);
    await again.put("a", { v: 4 });
    expect(await ids(again)).toEqual(["a", "b", "c"]);
    expect((await DocTable.open<{ v: number }>(await openDb(path), "docs")).get("a")).toEqual({ v: 4 });
  });
});

describe("GroupedDocTable", () => {
  it("appends the documents of a group minted by this process, and merges everything else", async () => {
    const path = home();
    const t = await GroupedDocTable.open<{ v: number }>(await openDb(path), "fields");
    t.markNew("r1");
    await Promise.all([t.put("r1/a", "r1", { v: 1 }), t.put("r1/b", "r1", { v: 1 }), t.put("r2/a", "r2", { v: 1 })]);
    await t.put("r1/a", "r1", { v: 2 }); // written before: merged
    await t.put("r2/a", "r2", { v: 2 }); // not minted here: merged
    expect(await ids(t)).toEqual(["r1/a", "r1/b", "r2/a"]);
    expect([...(await t.group("r1")).entries()].sort()).toEqual([
      ["r1/a", { v: 2 }],
      ["r1/b", { v: 1 }],
    ]);
    await t.deleteGroup("r1");
    await t.put("r1/a", "r1", { v: 3 });
    await t.delete("r2/a");
    await t.put("r2/a", "r2", { v: 3 });
    await t.put("r1/a", "r1", { v: 4 });
    expect(await ids(t)).toEqual(["r1/a", "r2/a"]);
    expect(await t.get("r1/a")).toEqual({ v: 4 });
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
});
