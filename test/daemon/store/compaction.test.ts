import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../../daemon/store/db.js";
import { type ParagraphRow, ParagraphStore } from "../../../daemon/store/paragraphs.js";
import { WriteQueue } from "../../../daemon/store/write-queue.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function row(rid: string, text: string): ParagraphRow {
  return {
    id: `${rid}/t/body/0-${text.length}`,
    rid,
    field: "t/body",
    field_type: "text",
    split: "",
    start: 0,
    end: text.length,
    page: 0,
    idx: 0,
    kind: "TEXT",
    is_table: false,
    labels: [],
    facets: [],
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

async function openStore(policy: { checkEvery: number; minSmallFragments: number; settleMs?: number }) {
  const dir = mkdtempSync(join(tmpdir(), "kbox-cmp-"));
  dirs.push(dir);
  return ParagraphStore.open(await openDb(join(dir, "db")), policy);
}

describe("ParagraphStore background compaction", () => {
  it("merges the small fragments of many commits inside the write queue, keeping every row", async () => {
    const store = await openStore({ checkEvery: 10, minSmallFragments: 8 });
    // One awaited write per commit: each leaves a small fragment behind.
    for (let i = 0; i < 30; i++) await store.replaceField(`r${i}`, "t/body", [row(`r${i}`, `paragraph ${i}`)]);
    await store.idle();
    expect(store.compactions.length).toBeGreaterThan(0);
    const stats = await store.table.stats();
    expect(stats.fragmentStats.numFragments).toBeLessThan(30);
    expect(await store.count()).toBe(30);
    // Writes queued while compaction runs are all committed, none lost to a conflict.
    const writes = Array.from({ length: 20 }, (_, i) => store.replaceField(`w${i}`, "t/body", [row(`w${i}`, `late ${i}`)]));
    const forced = store.compact();
    await Promise.all([...writes, forced]);
    expect(await forced).toBe(true);
    expect(await store.count()).toBe(50);
    expect((await store.table.stats()).fragmentStats.numFragments).toBeLessThanOrEqual(2);
  });

  it("completes an ids pass by address, and by id once a compaction moved the rows", async () => {
    const store = await openStore({ checkEvery: 1000, minSmallFragments: 1000 });
    for (let i = 0; i < 12; i++) await store.replaceField(`r${i}`, "t/body", [row(`r${i}`, `harbour paragraph ${i}`)]);
    await store.ensureKeywordIndex();
    const hits = await store.keyword({ should: "harbour", must: [], phrases: [], mustNot: [] }, ["en"], "true", 20, "ids");
    expect(hits).toHaveLength(12);
    expect(hits.every((h) => typeof h.rowid === "number" && h.text === undefined)).toBe(true);
    const byAddress = await store.complete(hits);
    expect(byAddress.map((h) => h.id)).toEqual(hits.map((h) => h.id));
    expect(byAddress.map((h) => h.score)).toEqual(hits.map((h) => h.score));
    expect(byAddress.every((h) => h.text.startsWith("harbour paragraph") && h.rowid === undefined)).toBe(true);
    // Compaction rewrites the 12 one-row fragments into one: the old addresses name other rows or none.
    expect(await store.compact()).toBe(true);
    const moved = await store.complete(hits);
    expect(moved.map((h) => [h.id, h.text])).toEqual(byAddress.map((h) => [h.id, h.text]));
  });

  it("builds the full-text index of a filled table while a compaction comes: the index is there, over every row", async () => {
    // A box filled before its first search: many fragments, no full-text index yet.
    const filled = async () => {
      const store = await openStore({ checkEvery: 1000, minSmallFragments: 1000 });
      const words = ["harbour", "lantern", "meadow", "quarry", "saddle", "thistle", "walnut", "zephyr"];
      for (let f = 0; f < 25; f++)
        await store.bulkAdd(
          Array.from({ length: 1000 }, (_, i) => {
            const n = f * 1000 + i;
            return row(`r${n}`, Array.from({ length: 40 }, (_, k) => `${words[(n + k) % 8]}${(n * 7 + k) % 997}`).join(" "));
          }),
        );
      return store;
    };
    // The first search builds the index and the settling compaction comes meanwhile, or the other way
    // round: each one's commit preempted the other's, and the box had no full-text index (every query
    // read every row) or was left uncompacted.
    for (const order of ["build first", "compaction first"]) {
      const store = await filled();
      const both =
        order === "build first"
          ? [store.ensureKeywordIndex(), store.compact(true)]
          : [store.compact(true), store.ensureKeywordIndex()];
      await Promise.all(both);
      const terms = (await store.indexes()).find((i) => i.column === "terms");
      expect(terms, order).toMatchObject({ indexedRows: 25_000, unindexedRows: 0 });
      expect((await store.table.stats()).fragmentStats.numFragments, order).toBeLessThan(25);
    }
  });

  it("builds the full-text index once writes settle, with no search asking for it", async () => {
    const store = await openStore({ checkEvery: 1000, minSmallFragments: 1000, settleMs: 50 });
    for (let i = 0; i < 12; i++) await store.replaceField(`r${i}`, "t/body", [row(`r${i}`, `harbour paragraph ${i}`)]);
    // Settled once or, on a loaded machine, between two writes too: the last settle folds in the rest.
    const terms = async () => (await store.indexes()).find((i) => i.column === "terms");
    const done = async () => (await terms())?.indexedRows === 12;
    for (let t = Date.now(); !(await done()) && Date.now() - t < 10_000; ) await new Promise((r) => setTimeout(r, 25));
    expect(await terms()).toMatchObject({ indexedRows: 12, unindexedRows: 0 });
    expect(store.compactions.length).toBeGreaterThan(0); // the settling compaction came first
    // A search asking at the same time as another gets the same build, not a second one.
    const other = await openStore({ checkEvery: 1000, minSmallFragments: 1000 });
    await other.replaceField("a", "t/body", [row("a", "lantern")]);
    const first = other.ensureKeywordIndex();
    expect(other.ensureKeywordIndex()).toBe(first);
    await first;
    const hits = await other.keyword({ should: "lantern", must: [], phrases: [], mustNot: [] }, ["en"], "true", 5, "ids");
    expect(hits).toHaveLength(1);
  });

  it("builds nothing once closed: the settle timer of a closed table does not write its folder", async () => {
    const store = await openStore({ checkEvery: 1000, minSmallFragments: 1000, settleMs: 50 });
    await store.replaceField("r", "t/body", [row("r", "harbour")]);
    store.close();
    await new Promise((r) => setTimeout(r, 300));
    await store.stopped();
    // Nor does a late search's build (the settling run calls the same).
    await expect(store.ensureKeywordIndex()).rejects.toThrow("closed");
    await store.table.checkoutLatest(); // what is on disk, not only what readers were shown
    expect((await store.indexes()).some((i) => i.column === "terms")).toBe(false);
  });

  it("leaves a table with few small fragments alone", async () => {
    const store = await openStore({ checkEvery: 2, minSmallFragments: 1000 });
    for (let i = 0; i < 6; i++) await store.replaceField(`r${i}`, "t/body", [row(`r${i}`, `p ${i}`)]);
    await store.idle();
    expect(store.compactions).toEqual([]);
    expect(await store.count()).toBe(6);
  });
});

/** A queue whose commits take `ms` and are logged ("commit a,b"), with the log (tasks add their own lines). */
function loggedQueue(ms: number): { q: WriteQueue<string>; log: string[] } {
  const log: string[] = [];
  const q = new WriteQueue<string>(async (ops) => {
    log.push(`commit ${ops.join(",")}`);
    await new Promise((r) => setTimeout(r, ms));
  });
  return { q, log };
}

describe("WriteQueue", () => {
  it("runs exclusive tasks between commits, in order, and batches the ops around them", async () => {
    const { q, log } = loggedQueue(5);
    const a = q.push("a");
    const b = q.push("b");
    const t = q.exclusive(async () => {
      log.push("task");
      return 42;
    });
    const c = q.push("c");
    await Promise.all([a, b, c]);
    expect(await t).toBe(42);
    expect(log).toEqual(["commit a,b", "task", "commit c"]);
  });

  it("group commit: writes that keep arriving during commits are gathered; a lone writer never waits", async () => {
    const batches: number[][] = [];
    const commit = async (ops: number[]) => {
      batches.push(ops);
      await new Promise((r) => setTimeout(r, 5));
    };
    // A lone writer, one write after the other: each commits at once, alone (a wait of a minute would time the test out).
    const lone = new WriteQueue<number>(commit, 1000, 60_000);
    for (let i = 0; i < 5; i++) await lone.push(i);
    expect(batches).toEqual([[0], [1], [2], [3], [4]]);
    // Many writers, a write every 2 ms: after the first commit, later ones are gathered 40 ms at a time.
    batches.length = 0;
    const q = new WriteQueue<number>(commit, 1000, 40);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      writes.push(q.push(100 + i));
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(writes);
    expect(batches.flat()).toEqual(Array.from({ length: 60 }, (_, i) => 100 + i)); // in order, each once
    expect(batches.length).toBeLessThan(12); // without gathering: a commit per 5 ms, about 25
  });

  it("idle waits for the writes queued so far, not for the ones that keep arriving after it", async () => {
    const committed: number[] = [];
    const q = new WriteQueue<number>(
      async (ops) => {
        await new Promise((r) => setTimeout(r, 10));
        committed.push(...ops);
      },
      1000,
      0,
    );
    // A writer that never stops: a write every 3 ms, so the queue is never empty while it runs.
    let stop = false;
    let next = 0;
    const writer = (async () => {
      const all: Promise<void>[] = [];
      while (!stop) {
        all.push(q.push(next++));
        await new Promise((r) => setTimeout(r, 3));
      }
      await Promise.all(all);
    })();
    await new Promise((r) => setTimeout(r, 30));
    const queuedBefore = next;
    await q.idle();
    // Everything queued before the call is committed. The writer stops only once idle returned: an idle
    // that waited for the queue to drain would never return here.
    expect(committed.length).toBeGreaterThanOrEqual(queuedBefore);
    expect(committed.slice(0, queuedBefore)).toEqual(Array.from({ length: queuedBefore }, (_, i) => i));
    stop = true;
    await writer;
    await q.idle();
    expect(committed).toEqual(Array.from({ length: next }, (_, i) => i));
  }, 10_000);

  it("rejects the ops of a failed commit and goes on with the next ones", async () => {
    const q = new WriteQueue<number>(async (ops) => {
      if (ops.includes(13)) throw new Error("unlucky");
    });
    const bad = q.push(13);
    await expect(bad).rejects.toThrow("unlucky");
    await expect(q.push(1)).resolves.toBeUndefined();
    const failing = q.exclusive(async () => {
      throw new Error("task failed");
    });
    await expect(failing).rejects.toThrow("task failed");
    await expect(q.push(2)).resolves.toBeUndefined();
  });

  it("once closed runs no task, and stopped() waits for the one already running", async () => {
    const { q, log } = loggedQueue(10);
    // A box being deleted: its writes are waited for, then a sweep or a compaction comes in
    // before the close (as from a timer), and another after it.
    const write = q.push("a");
    const idle = q.idle();
    const late = q.exclusive(async () => {
      log.push("late task starts");
      await new Promise((r) => setTimeout(r, 50));
      log.push("late task done");
    });
    await Promise.all([write, idle]);
    q.close("deleted");
    const after = q.exclusive(async () => {
      log.push("task after close");
    });
    await expect(after).rejects.toThrow("deleted");
    await q.stopped();
    // The late task either never ran (refused) or had started, and is over once stopped() resolves.
    const started = log.includes("late task starts");
    expect(log.includes("late task done")).toBe(started);
    if (!started) await expect(late).rejects.toThrow("deleted");
    expect(log).not.toContain("task after close");
  });

  it("refuses the tasks still queued at close instead of running them", async () => {
    const ran: string[] = [];
    const q = new WriteQueue<string>(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    const write = q.push("a");
    const queued = q.exclusive(async () => {
      ran.push("compaction");
    });
    q.close("deleted");
    await expect(write).rejects.toThrow("deleted");
    await expect(queued).rejects.toThrow("deleted");
    await q.stopped();
    expect(ran).toEqual([]);
  });
});
