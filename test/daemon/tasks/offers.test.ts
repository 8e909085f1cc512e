import { describe, expect, it } from "vitest";
import type { DocTable } from "../../../daemon/store/doc-table.js";
import type { ResourceDoc, TaskDoc, TaskOfferDoc } from "../../../daemon/store/index.js";
import { OfferJournal } from "../../../daemon/tasks/offers.js";

/** The part of a DocTable the journal uses, in memory. */
function table(): DocTable<TaskOfferDoc> & { rows: Map<string, TaskOfferDoc> } {
  const rows = new Map<string, TaskOfferDoc>();
  return {
    rows,
    get: (id: string) => rows.get(id),
    put: async (id: string, doc: TaskOfferDoc) => void rows.set(id, doc),
    delete: async (id: string) => void rows.delete(id),
    values: () => rows.values(),
  } as never;
}
const task = (mark?: string) =>
  ({ id: "t1", kbid: "kb", defined_at: "2026-01-01T00:00:00.000Z", new_mark: mark, enabled: true, apply: "NEW" }) as TaskDoc;
const res = (id: string, processed_at?: string) => ({ id, processed_at }) as ResourceDoc;
const box = (...rs: ResourceDoc[]) => {
  const m = new Map(rs.map((r) => [r.id, r]));
  return { values: () => m.values(), get: (id: string) => m.get(id) };
};
const T = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;

describe("the offers journal", () => {
  it("hands each processing of a resource over once", async () => {
    const j = new OfferJournal(table());
    expect(await j.add(task(), "r", T(1))).toBe(true);
    expect(await j.add(task(), "r", T(1))).toBe(false); // pending for that processing already
    expect(await j.done("t1", "r", T(1))).toBe(1);
    expect(await j.add(task(), "r", T(1))).toBe(false); // ran
    expect(await j.add(task(), "r", T(2))).toBe(true); // processed again
    expect(j.pending("t1").map((o) => o.processed_at)).toEqual([T(2)]);
  });

  it("a row processed again while pending stays pending for the newer processing", async () => {
    const j = new OfferJournal(table());
    await j.add(task(), "r", T(1));
    expect(await j.add(task(), "r", T(2))).toBe(true);
    await j.done("t1", "r", T(1)); // the run that started on the older processing
    expect(j.pending("t1")).toHaveLength(1);
  });

  it("reconcile finds processings with no row since the mark, then moves the mark and forgets done rows", async () => {
    const t = table();
    const j = new OfferJournal(t);
    await j.add(task(), "a", T(2));
    await j.done("t1", "a", T(2));
    await j.add(task(), "p", T(3)); // pending: its job is queued
    const resources = box(
      res("old", T(0)), // before the task's mark: not its NEW data
      res("a", T(2)),
      res("p", T(3)),
      res("gap", T(4)), // processed, never journalled
      res("unprocessed"),
    );
    const { missed, mark } = await j.reconcile(task(T(1)), resources);
    expect(missed).toEqual(["gap"]);
    expect(mark).toBe(T(4));
    expect(j.pending("t1").map((o) => o.rid)).toEqual(["p", "gap"]);
    expect(t.rows.has("t1/a")).toBe(false); // done and below the mark: forgotten
    // From the new mark nothing is missed again.
    expect((await j.reconcile(task(mark), resources)).missed).toEqual([]);
  });
});
