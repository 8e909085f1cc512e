import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../daemon/store/db.js";
import { type DocObserver, DocTable } from "../../../daemon/store/doc-table.js";
import type { ResourceDoc } from "../../../daemon/store/records.js";
import { ResourceIndex } from "../../../daemon/store/resource-index.js";
import { MemoryTable, rng } from "../../helpers/memory-table.js";

const STATUSES = ["PENDING", "PROCESSED", "ERROR", "EMPTY", "BLOCKED", "EXPIRED"] as const;
type Key = [string, string];

const doc = (id: string, created: string, status: string): ResourceDoc =>
  ({ id, created, modified: created, metadata: { status }, fields: {}, queue: "private" }) as unknown as ResourceDoc;

/** What the processing status computed before the index: a pass over every resource, and a sort. */
function bruteForce(docs: Iterable<ResourceDoc>, statuses: string[] | undefined, after: Key | undefined, limit: number) {
  const wanted = statuses?.length ? new Set(statuses) : undefined;
  const totals: Record<string, number> = {};
  const matching: ResourceDoc[] = [];
  for (const r of docs) {
    totals[r.metadata.status] = (totals[r.metadata.status] ?? 0) + 1;
    if (wanted && !wanted.has(r.metadata.status)) continue;
    if (after && (r.created < after[0] || (r.created === after[0] && r.id <= after[1]))) continue;
    matching.push(r);
  }
  const before = (a: ResourceDoc, b: ResourceDoc) => a.created < b.created || (a.created === b.created && a.id < b.id);
  matching.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return { totals, ids: matching.slice(0, limit).map((r) => r.id), more: matching.length > limit };
}

/** Every answer of the index equals the brute force's: totals, pages of random queries, and a walk by cursor. */
function check(index: ResourceIndex, docs: Map<string, ResourceDoc>, rand: () => number): void {
  expect(index.totals()).toEqual(bruteForce(docs.values(), undefined, undefined, 0).totals);
  const keys = [...docs.values()].map((d): Key => [d.created, d.id]);
  for (let q = 0; q < 8; q++) {
    const statuses = rand() < 0.3 ? undefined : STATUSES.filter(() => rand() < 0.35);
    // After an existing key, a key between (made up), or from the start.
    const r = rand();
    const after: Key | undefined =
      r < 0.3 || !keys.length ? undefined : r < 0.7 ? keys[Math.floor(rand() * keys.length)] : [time(rand() * 3000), id(rand)];
    const limit = 1 + Math.floor(rand() * (rand() < 0.2 ? 300 : 12));
    const got = index.page(statuses, after, limit);
    const want = bruteForce(docs.values(), statuses, after, limit);
    expect({ ids: got.resources.map((d) => d.id), more: got.more }).toEqual({ ids: want.ids, more: want.more });
    for (const d of got.resources) expect(d).toBe(docs.get(d.id)); // the cached document itself
  }
  // A walk by cursor (as a client pages) lists the box in the brute force's order.
  const statuses = rand() < 0.5 ? undefined : [STATUSES[Math.floor(rand() * 3)]];
  const seen: string[] = [];
  let after: Key | undefined;
  for (;;) {
    const page = index.page(statuses, after, 37);
    seen.push(...page.resources.map((d) => d.id));
    if (!page.more) break;
    const last = page.resources[page.resources.length - 1];
    after = [last.created, last.id];
  }
  expect(seen).toEqual(bruteForce(docs.values(), statuses, undefined, Number.MAX_SAFE_INTEGER).ids);
}

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
/** Creation times on a coarse clock (seconds), so that several resources share one. */
const time = (t: number) => new Date(T0 + Math.floor(t) * 1000).toISOString();
const id = (rand: () => number) =>
  Math.floor(rand() * 2 ** 48)
    .toString(16)
    .padStart(12, "0");

/** A random change: mostly new resources (nearly in creation order) and status changes; deletes, some in bulk. */
function change(table: MemoryTable, rand: () => number, clock: { t: number }, gone: ResourceDoc[]): void {
  const ids = [...table.docs.keys()];
  const pick = () => table.docs.get(ids[Math.floor(rand() * ids.length)]) as ResourceDoc;
  const status = () => (rand() < 0.5 ? "PENDING" : STATUSES[Math.floor(rand() * STATUSES.length)]);
  const r = rand();
  if (r < 0.35 || ids.length < 5) {
    // New: now, or a little earlier (a put that lost a race), or long ago (another daemon's commit).
    clock.t += rand() * 1.5;
    const t = rand() < 0.8 ? clock.t : rand() < 0.7 ? clock.t - rand() * 20 : rand() * clock.t;
    const x = id(rand);
    table.set(x, doc(x, time(t), rand() < 0.8 ? "PENDING" : status()));
  } else if (r < 0.75) {
    const d = pick(); // a status change, or another put of the same status
    table.set(d.id, { ...d, metadata: { status: status() }, modified: time(clock.t) });
  } else if (r < 0.85) {
    const d = pick();
    gone.push(d);
    table.set(d.id, undefined);
  } else if (r < 0.9) {
    // Processing, oldest first (PENDING to done, from the front of the order), or a sync removing files.
    const oldest = [...table.docs.values()].sort((x, y) => (x.created < y.created ? -1 : 1));
    const drop = rand() < 0.3;
    for (const d of oldest.slice(0, Math.ceil(oldest.length / (drop ? 4 : 8)))) {
      if (drop) table.set(d.id, undefined);
      else if (d.metadata.status === "PENDING") table.set(d.id, { ...d, metadata: { status: "PROCESSED" } });
    }
  } else if (r < 0.96 && gone.length) {
    const d = gone.splice(Math.floor(rand() * gone.length), 1)[0]; // a deleted id back (a restore)
    if (!table.docs.has(d.id))
      table.set(d.id, rand() < 0.7 ? { ...d, metadata: { status: status() } } : { ...d, created: time(rand() * clock.t) });
  } else {
    const d = pick(); // its creation time rewritten
    table.set(d.id, { ...d, created: time(rand() * clock.t) });
  }
}

describe("ResourceIndex", () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`answers as a pass over every resource would, through random changes (seed ${seed})`, () => {
      const rand = rng(seed);
      const table = new MemoryTable();
      const clock = { t: 0 };
      const gone: ResourceDoc[] = [];
      // Documents already in the table when the index is made (a box opened), in no particular order.
      for (let i = 0; i < 400; i++) change(table, rand, clock, gone);
      const index = new ResourceIndex(table);
      check(index, table.docs, rand);
      for (let step = 0; step < 4000; step++) {
        change(table, rand, clock, gone);
        if (step % 40 === 0) check(index, table.docs, rand);
      }
      check(index, table.docs, rand);
    });
  }

  it("keeps its order through adds far from the end (another daemon's commits, a reprocess of everything)", () => {
    const rand = rng(11);
    const table = new MemoryTable();
    const index = new ResourceIndex(table);
    const clock = { t: 0 };
    const docs = Array.from({ length: 6000 }, (_, i) => doc(`r${i}`, time(i / 3), i % 7 ? "PROCESSED" : "PENDING"));
    // In random order, checked as they come; then every one back to PENDING, also in random order.
    docs.sort(() => rand() - 0.5);
    for (const [i, d] of docs.entries()) {
      table.set(d.id, d);
      if (i % 13 === 0) {
        // Removed and back before the next walk (a restore), it must still come once.
        table.set(d.id, undefined);
        table.set(d.id, { ...d, metadata: { status: "ERROR" } });
      }
      if (i % 500 === 0) check(index, table.docs, rand);
      if (i % 50 === 0) change(table, rand, clock, []);
    }
    check(index, table.docs, rand);
    for (const [i, d] of [...table.docs.values()].sort(() => rand() - 0.5).entries()) {
      table.set(d.id, { ...d, metadata: { status: "PENDING" } });
      if (i % 700 === 0) check(index, table.docs, rand);
    }
    check(index, table.docs, rand);
    expect(index.totals()).toEqual({ PENDING: table.docs.size });
  });

  it("follows a DocTable: its documents at open, puts, deletes, and another daemon's commits (refresh)", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kbox-rindex-")), "db");
    const mine = await DocTable.open<ResourceDoc>(await openDb(path), "resources");
    const rand = rng(7);
    for (let i = 0; i < 50; i++) await mine.put(`r${i}`, doc(`r${i}`, time(100 - i), i % 3 ? "PROCESSED" : "PENDING"));
    // Another daemon sharing the table (data on object storage): it sees our commits when it refreshes.
    const shared = { storageOptions: {}, refreshMs: 0 }; // reads see the other's latest commit
    const other = await DocTable.open<ResourceDoc>(await openDb(path, undefined, shared), "resources", 60_000);
    const index = new ResourceIndex(other);
    const cache = () => new Map([...other.values()].map((d) => [d.id, d]));
    check(index, cache(), rand);
    await Promise.all([
      mine.put("r1", doc("r1", time(99), "ERROR")),
      mine.delete("r2"),
      mine.put("late", doc("late", time(1), "PENDING")),
      mine.put("r3", doc("r3", time(500), "PENDING")),
    ]);
    await other.refresh();
    expect(other.get("late")?.metadata.status).toBe("PENDING");
    check(index, cache(), rand);
    expect(index.page(["ERROR"], undefined, 10).resources.map((d) => d.id)).toEqual(["r1"]);
    await other.put("r4", doc("r4", time(96), "EXPIRED"));
    await other.delete("r5");
    check(index, cache(), rand);
    expect(index.totals()).toEqual(bruteForce(other.values(), undefined, undefined, 0).totals);
    mine.close();
    other.close();
  });
});
