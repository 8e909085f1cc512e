import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../daemon/store/db.js";
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
});
