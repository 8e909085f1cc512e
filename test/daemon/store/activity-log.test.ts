import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ActivityLog, activityMonth } from "../../../daemon/store/activity.js";
import { openDb } from "../../../daemon/store/db.js";

const dir = mkdtempSync(join(tmpdir(), "kbox-activity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the activity journal", () => {
  it("replays journal-only events once: a kill between the table commit and the journal's truncation duplicates nothing", async () => {
    const journal = join(dir, "activity.journal");
    const db = await openDb(join(dir, "lance"));
    const log = await ActivityLog.open(db, journal);
    const a = log.append("search", { question: "one" });
    log.append("search", { question: "two" });
    log.patch(a.id, "search", { note: "patched" });
    const lines = readFileSync(journal, "utf8");
    expect(lines.trim().split("\n")).toHaveLength(3);
    await log.idle(); // in the table; the journal emptied
    expect(readFileSync(journal, "utf8")).toBe("");
    log.append("ask", { question: "three" });
    log.close();
    // As if the kill came after the commit but before the truncation: the old lines are back, and a torn last line.
    writeFileSync(journal, `${lines}${readFileSync(journal, "utf8")}{"seq":12`);
    const again = await ActivityLog.open(db, journal);
    const month = activityMonth(a.id);
    const rows = await again.read(month);
    expect(rows.map((r) => r.doc.question)).toEqual(["one", "two", "three"]);
    expect(rows[0].doc.note).toBe("patched");
    expect((await again.read(month, ["ask"])).map((r) => r.event)).toEqual(["ask"]);
    expect(readFileSync(journal, "utf8")).toBe("");
    const b = again.append("ask", { question: "four" });
    expect(b.id).toBeGreaterThan(rows[2].id);
    expect(await again.months("ask")).toEqual([month]);
    again.close();
    db.close();
  });

  it("journals the events appended in one turn together, in id order, before a later line, once each", async () => {
    const journal = join(dir, "soon.journal");
    const db = await openDb(join(dir, "lance-soon"));
    const log = await ActivityLog.open(db, journal);
    const soon = Array.from({ length: 50 }, (_, i) => log.appendSoon("processed", { n: i }));
    // Not written yet: they go with the next write of the journal.
    expect(readFileSync(journal, "utf8")).toBe("");
    // A synchronous append writes them first, then itself.
    const now = log.append("search", { n: 50 });
    const lines = () =>
      readFileSync(journal, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: number; doc: { n: number } });
    expect(lines().map((e) => e.doc.n)).toEqual(Array.from({ length: 51 }, (_, i) => i));
    const recs = await Promise.all(soon);
    expect(recs.map((r) => r.doc.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(recs.every((r, i) => i === 0 || r.id > recs[i - 1].id)).toBe(true);
    expect(now.id).toBeGreaterThan(recs[49].id);
    // Alone, they are in the journal once they resolve.
    const later = await Promise.all([log.appendSoon("indexed", { n: 51 }), log.appendSoon("indexed", { n: 52 })]);
    expect(lines().map((e) => e.doc.n)).toEqual(Array.from({ length: 53 }, (_, i) => i));
    await log.idle();
    const rows = await log.read(activityMonth(later[1].id));
    expect(rows.map((r) => r.doc.n)).toEqual(Array.from({ length: 53 }, (_, i) => i));
    // A closed log refuses (the activity service logs it and the request goes on).
    log.close();
    await expect(log.appendSoon("processed", {})).rejects.toThrow(/closed/);
    db.close();
  });
});
