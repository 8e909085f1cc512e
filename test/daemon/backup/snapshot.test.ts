import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KbStore } from "../../../daemon/store/index.js";
import type { ParagraphRow } from "../../../daemon/store/paragraphs.js";
import { snapshotKb } from "../../../daemon/store/snapshot.js";

const root = mkdtempSync(join(tmpdir(), "kbox-snap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function row(rid: string, i: number): ParagraphRow {
  const text = `paragraph ${i} of ${rid}`;
  return {
    ...{ id: `${rid}/t/a/${i * 100}-${i * 100 + text.length}`, rid, field: "t/a", field_type: "text", split: "", start: i * 100 },
    ...{
      end: i * 100 + text.length,
      page: 0,
      idx: i,
      kind: "TEXT",
      is_table: false,
      labels: [],
      facets: ["/l/topic/a"],
      text,
      lang: "en",
    },
    ...{ path: "", created: 1, modified: 1, hidden: false, groups: [], hash: text, vectors: { small: [i, 1, 0, 0.5] } },
  };
}

async function dump(s: KbStore, version?: number) {
  const t = await s.db.openTable("paragraphs");
  if (version !== undefined) await t.checkout(version);
  const rows = await t.query().select(["id", "text", "vec_small"]).toArray();
  t.close();
  return rows
    .map((r) => ({ id: r.id as string, text: r.text as string, vec: Array.from(r.vec_small as ArrayLike<number>) }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

describe("snapshotKb", () => {
  it("copies every table at its pinned version while a writer keeps committing, vectors and extra tables included", async () => {
    const src = await KbStore.open("11111111-1111-1111-1111-111111111111", join(root, "src"));
    await src.paragraphs.ensureVectorset("small", 4);
    const labels = await src.docTable<{ name: string }>("labelsets");
    await labels.put("topic", { name: "topic" });
    for (let r = 0; r < 10; r++) await src.paragraphs.replaceField(`r${r}`, "t/a", [row(`r${r}`, 0), row(`r${r}`, 1)]);
    await src.blobs.write("r/r0/f/doc/x", Buffer.from("blob bytes"));

    let stop = false;
    let n = 10;
    const writer = (async () => {
      while (!stop) await src.paragraphs.replaceField(`r${n}`, "t/a", [row(`r${n++}`, 0)]);
    })();
    await new Promise((r) => setTimeout(r, 50));
    const snap = await snapshotKb(src, join(root, "snap"), "test-tag");
    await new Promise((r) => setTimeout(r, 100));
    stop = true;
    await writer;

    // The tag holds the pinned version until release.
    const t = await src.db.openTable("paragraphs");
    expect((await (await t.tags()).list())["test-tag"]).toBeDefined();
    await snap.release();
    expect((await (await t.tags()).list())["test-tag"]).toBeUndefined();
    t.close();

    const copy = await KbStore.open("22222222-2222-2222-2222-222222222222", join(root, "snap"));
    const pinned = await dump(src, snap.tables.paragraphs);
    expect(await dump(copy)).toEqual(pinned);
    expect(pinned.length).toBe(snap.rows.paragraphs);
    expect(await src.paragraphs.count()).toBeGreaterThan(pinned.length);
    expect(snap.vectorsets).toEqual({ small: 4 });
    expect(Object.keys(snap.tables).sort()).toEqual(["fields", "labelsets", "paragraphs", "resources"]);
    expect((await copy.docTable<{ name: string }>("labelsets")).get("topic")).toEqual({ name: "topic" });
    expect(await copy.blobs.size("r/r0/f/doc/x")).toBe(10);

    // The copy is a working table: it takes new writes.
    await copy.paragraphs.replaceField("new", "t/a", [row("new", 0)]);
    expect(await copy.paragraphs.count()).toBe(pinned.length + 1);
    copy.close();
    src.close();
  });
});
