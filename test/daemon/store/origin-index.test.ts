import { describe, expect, it } from "vitest";
import { OriginIndex } from "../../../daemon/store/origin-index.js";
import type { ResourceDoc } from "../../../daemon/store/records.js";
import { MemoryTable, rng } from "../../helpers/memory-table.js";

const doc = (id: string, source: string | undefined, file: string | undefined): ResourceDoc =>
  ({
    id,
    metadata: { status: "PENDING" },
    fields: {},
    ...(source || file ? { origin: { source_id: source, sync_metadata: { file_id: file } } } : {}),
  }) as unknown as ResourceDoc;

/** What the sync passes computed before the index: a look at every resource. */
function bruteForce(docs: Iterable<ResourceDoc>, source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of docs) {
    const file = r.origin?.sync_metadata?.file_id;
    if (r.origin?.source_id === source && file) out.set(file, r.id);
  }
  return out;
}

const sorted = (m: ReadonlyMap<string, string>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

describe("OriginIndex", () => {
  it("knows the resources each sync configuration owns through puts, moves, re-owning and deletes", () => {
    const table = new MemoryTable();
    table.set("pre1", doc("pre1", "c1", "a.md")); // in the table before the index: read at its start
    const index = new OriginIndex(table);
    const random = rng(17);
    const sources = ["c1", "c2", "c3", undefined];
    for (let step = 0; step < 4000; step++) {
      const rid = `r${Math.floor(random() * 300)}`;
      const r = random();
      if (r < 0.2) table.set(rid, undefined);
      else {
        const source = sources[Math.floor(random() * sources.length)];
        // No two resources of a configuration claim one file: a file id is unique within it.
        const file = random() < 0.1 ? undefined : `${rid}-${Math.floor(random() * 3)}.md`;
        table.set(rid, doc(rid, source, file));
      }
      if (step % 97 === 0)
        for (const s of ["c1", "c2", "c3"]) expect(sorted(index.owned(s))).toEqual(sorted(bruteForce(table.docs.values(), s)));
    }
    for (const s of ["c1", "c2", "c3", "nobody"])
      expect(sorted(index.owned(s))).toEqual(sorted(bruteForce(table.docs.values(), s)));
    expect(index.owned("c1").size).toBeGreaterThan(10);
  });

  it("keeps a file's owner when another resource claiming the same file goes", () => {
    const table = new MemoryTable();
    const index = new OriginIndex(table);
    table.set("a", doc("a", "c1", "x.md"));
    table.set("b", doc("b", "c1", "x.md"));
    expect(index.owned("c1").get("x.md")).toBe("b");
    table.set("a", undefined);
    expect(index.owned("c1").get("x.md")).toBe("b");
    table.set("b", doc("b", "c1", "y.md"));
    expect([...index.owned("c1")]).toEqual([["y.md", "b"]]);
  });
});
