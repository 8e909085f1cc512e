import { closeSync, ftruncateSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { arrow, tableOf, ZSTD } from "./arrow.js";
import { appendRows, type Connection, openOrCreate, sqlIntegers, type Table } from "./db.js";

const { Field, Int64, Schema, Utf8 } = arrow;

/**
 * One month of a knowledge box's activity: a row per event (`kind` "row", `seq` = its id) and a row
 * per later change to an event (`kind` "patch": feedback, quality scores), merged on read.
 */
const SCHEMA = new Schema([
  new Field("seq", new Int64(), false),
  new Field("id", new Int64(), false),
  new Field("kind", new Utf8(), false),
  new Field("event", new Utf8(), false),
  new Field("doc", new Utf8(), false, ZSTD),
]);

/** One event as stored: its id (milliseconds × 1000 + a counter: ordered, and its date is in it), type, date and members. */
export interface ActivityRecord {
  id: number;
  event: string;
  date: string;
  doc: Record<string, unknown>;
}

interface Entry {
  seq: number;
  id: number;
  kind: "row" | "patch";
  event: string;
  doc: Record<string, unknown>;
}

/** The date an activity id carries. */
export function activityDate(id: number): Date {
  return new Date(Math.floor(id / 1000));
}

/** `YYYY-MM` of an activity id (its monthly partition). */
export function activityMonth(id: number): string {
  return activityDate(id).toISOString().slice(0, 7);
}

const tableName = (month: string) => `activity_${month.replace("-", "_")}`;
const monthOf = (table: string) => /^activity_(\d{4})_(\d{2})$/.exec(table)?.slice(1, 3).join("-");

/** Rows reach the tables this long after their journal write (or sooner, past FLUSH_ROWS): few, large commits, whose fixed cost (~0.1 s of LanceDB work) stays off the requests. */
const FLUSH_MS = 5000;
const FLUSH_ROWS = 5000;

/**
 * A knowledge box's activity log: monthly LanceDB tables behind an append-only journal file. An
 * append has written its line to the journal when it returns, so an acknowledged event outlives a
 * kill -9 of the daemon (not a power cut: the journal is not fsynced); the tables get the rows in
 * batches later, and the journal is emptied of what they hold. Reads merge the tables with what is
 * not yet in them.
 */
export class ActivityLog {
  private last = 0;
  private fd: number | undefined;
  /** Journaled, not yet in a table (in journal order). */
  private uncommitted: Entry[] = [];
  /** Appended by appendSoon, not yet journaled (in id order), and the write that will journal them. */
  private queued: Entry[] = [];
  private queuedWrite: Promise<void> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly tables = new Map<string, Promise<Table>>();

  private constructor(
    private readonly db: Connection,
    private readonly path: string,
  ) {}

  /** Open the log; events a kill left in the journal only are moved into their tables first. */
  static async open(db: Connection, journalPath: string): Promise<ActivityLog> {
    const log = new ActivityLog(db, journalPath);
    await log.replay();
    log.fd = openSync(journalPath, "a", 0o600);
    return log;
  }

  /** A new event id: after every id handed out, and not before now. */
  private nextId(): number {
    this.last = Math.max(this.last + 1, Date.now() * 1000);
    return this.last;
  }

  /** Append an event: in the journal when this returns (it survives a kill from then on). */
  append(event: string, doc: Record<string, unknown>): ActivityRecord {
    const { rec, entry } = this.entry(event, doc);
    this.journal([entry]);
    return rec;
  }

  /**
   * Append an event with the others appended this turn of the event loop: one journal write for all
   * of them. Resolves once it is in the journal. Processing records two events per resource, and a
   * write each was about 4 % of the daemon's thread while ingesting small notes.
   */
  appendSoon(event: string, doc: Record<string, unknown>): Promise<ActivityRecord> {
    if (this.fd === undefined) return Promise.reject(new Error("the activity log is closed"));
    const { rec, entry } = this.entry(event, doc);
    this.queued.push(entry);
    this.queuedWrite ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        try {
          this.journal([]);
          resolve();
        } catch (e) {
          reject(e);
        }
      }),
    );
    return this.queuedWrite.then(() => rec);
  }

  private entry(event: string, doc: Record<string, unknown>): { rec: ActivityRecord; entry: Entry } {
    const id = this.nextId();
    const date = activityDate(id).toISOString();
    const full = { ...doc, id, date };
    return { rec: { id, event, date, doc: full }, entry: { seq: id, id, kind: "row", event, doc: full } };
  }

  /** Merge members into an event already appended (feedback, quality); journaled like an append. */
  patch(id: number, event: string, members: Record<string, unknown>): void {
    this.journal([{ seq: this.nextId(), id, kind: "patch", event, doc: members }]);
  }

  /**
   * One synchronous append of short lines (those queued by appendSoon first, in id order): a
   * page-cache write (tens of microseconds) that a kill of the process cannot undo, without the
   * thread-pool round trip an asynchronous write costs a request.
   */
  private journal(entries: Entry[]): void {
    if (this.fd === undefined) throw new Error("the activity log is closed");
    const all = this.queued.length ? [...this.queued.splice(0), ...entries] : entries;
    this.queuedWrite = undefined;
    if (!all.length) return;
    writeSync(this.fd, all.map((e) => `${JSON.stringify(e)}\n`).join(""));
    for (const e of all) this.uncommitted.push(e);
    if (this.uncommitted.length >= FLUSH_ROWS) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
  }

  private flushSoon(ms: number): void {
    if (this.flushTimer && ms > 0) return;
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.chain = this.chain.then(() => this.commit()).catch(() => undefined);
    }, ms);
    this.flushTimer.unref();
  }

  /** Move what the journal holds into the monthly tables, then drop it from the journal. */
  private async commit(): Promise<void> {
    const batch = this.uncommitted;
    if (!batch.length || this.fd === undefined) return;
    await this.addToTables(batch);
    if (this.fd === undefined) return;
    this.uncommitted = this.uncommitted.slice(batch.length);
    if (!this.uncommitted.length) {
      ftruncateSync(this.fd, 0);
      return;
    }
    // Appended while the tables were written: a new journal of just those, swapped in by a rename.
    writeFileSync(`${this.path}.tmp`, this.uncommitted.map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 });
    renameSync(`${this.path}.tmp`, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, "a", 0o600);
  }

  private async addToTables(entries: Entry[]): Promise<void> {
    const byMonth = new Map<string, Entry[]>();
    for (const e of entries) {
      const m = activityMonth(e.id);
      const list = byMonth.get(m);
      if (list) list.push(e);
      else byMonth.set(m, [e]);
    }
    for (const [month, list] of byMonth) {
      const table = await this.table(month);
      // Built in one pass by column (arrow.ts), with the table's own schema (an older one may lack the compression).
      const rows = list.map((e) => ({
        seq: BigInt(e.seq),
        id: BigInt(e.id),
        kind: e.kind,
        event: e.event,
        doc: JSON.stringify(e.doc),
      }));
      await appendRows(table, tableOf(await table.schema(), rows));
    }
  }

  private async replay(): Promise<void> {
    const text = await readFile(this.path, "utf8").catch(() => "");
    const entries: Entry[] = [];
    for (const line of text.split("\n")) {
      try {
        if (line) entries.push(JSON.parse(line) as Entry);
      } catch {
        // The last line a kill cut short was never acknowledged.
      }
    }
    if (!entries.length) return;
    this.last = Math.max(...entries.map((e) => e.seq));
    const missing: Entry[] = [];
    for (const month of new Set(entries.map((e) => activityMonth(e.id)))) {
      const inMonth = entries.filter((e) => activityMonth(e.id) === month);
      const table = await this.table(month);
      // Journal entries are mostly consecutive: ranges, not one IN list of every number (see sqlIntegers).
      const have = new Set<number>();
      const wheres = sqlIntegers(
        "seq",
        inMonth.map((e) => e.seq),
      );
      for (const where of wheres)
        for (const r of await table.query().where(where).select(["seq"]).toArray()) have.add(Number(r.seq));
      missing.push(...inMonth.filter((e) => !have.has(e.seq)));
    }
    await this.addToTables(missing);
    // Written whole then renamed: a kill now leaves either the old journal (replayed again) or an empty one.
    await writeFile(`${this.path}.tmp`, "");
    await rename(`${this.path}.tmp`, this.path);
  }

  private table(month: string): Promise<Table> {
    let t = this.tables.get(month);
    if (!t) {
      t = openOrCreate(this.db, tableName(month), SCHEMA);
      this.tables.set(month, t);
      t.catch(() => this.tables.delete(month));
    }
    return t;
  }

  /** Months (`YYYY-MM`, oldest first) holding events, of one type when given. */
  async months(event?: string): Promise<string[]> {
    const out = new Set<string>();
    for (const name of await this.db.tableNames()) {
      const m = monthOf(name);
      if (!m) continue;
      const rows = await (await this.table(m))
        .query()
        .where(event ? `kind = 'row' AND event = '${event.replace(/'/g, "''")}'` : "kind = 'row'")
        .select(["seq"])
        .limit(1)
        .toArray();
      if (rows.length) out.add(m);
    }
    for (const e of this.uncommitted) if (e.kind === "row" && (!event || e.event === event)) out.add(activityMonth(e.id));
    return [...out].sort();
  }

  /** Every event of a month (of some types when given), changes merged, oldest first. */
  async read(month: string, events?: readonly string[]): Promise<ActivityRecord[]> {
    // Taken first: a commit finishing while the table is read leaves each entry in one or the other.
    const pending = this.uncommitted.filter((e) => activityMonth(e.id) === month);
    const names = await this.db.tableNames();
    const stored: Entry[] = [];
    if (names.includes(tableName(month))) {
      const rows = await (await this.table(month)).query().select(["seq", "id", "kind", "event", "doc"]).toArray();
      for (const r of rows)
        stored.push({ seq: Number(r.seq), id: Number(r.id), kind: r.kind, event: r.event, doc: JSON.parse(r.doc as string) });
    }
    const seen = new Set(stored.map((e) => e.seq));
    const all = [...stored, ...pending.filter((e) => !seen.has(e.seq))];
    all.sort((a, b) => a.seq - b.seq);
    const rows = new Map<number, ActivityRecord>();
    for (const e of all) {
      if (e.kind === "row") {
        if (!events || events.includes(e.event))
          rows.set(e.id, { id: e.id, event: e.event, date: String(e.doc.date), doc: e.doc });
      } else {
        const row = rows.get(e.id);
        if (row) row.doc = { ...row.doc, ...e.doc };
      }
    }
    return [...rows.values()].sort((a, b) => a.id - b.id);
  }

  /** Every event between two instants (milliseconds), over the months they span. */
  async range(fromMs: number, toMs: number, events?: readonly string[]): Promise<ActivityRecord[]> {
    const out: ActivityRecord[] = [];
    for (const m of await this.months()) {
      const start = Date.parse(`${m}-01T00:00:00Z`);
      const end = new Date(start);
      end.setUTCMonth(end.getUTCMonth() + 1);
      if (end.getTime() <= fromMs || start > toMs) continue;
      for (const r of await this.read(m, events)) {
        const t = Math.floor(r.id / 1000);
        if (t >= fromMs && t <= toMs) out.push(r);
      }
    }
    return out;
  }

  /** Drop the monthly tables before `month` (`YYYY-MM`): the retention. Returns the months dropped. */
  async dropBefore(month: string): Promise<string[]> {
    const dropped: string[] = [];
    await this.idle();
    for (const name of await this.db.tableNames()) {
      const m = monthOf(name);
      if (!m || m >= month) continue;
      this.tables.delete(m);
      await this.db.dropTable(name);
      dropped.push(m);
    }
    return dropped;
  }

  /** Everything appended so far is in the tables. */
  async idle(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.chain = this.chain.then(() => this.commit());
    await this.chain;
  }

  /** Once closed: resolves when the table commit under way, if any, is done. */
  async stopped(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  /** Stop: what is journaled but not in the tables stays in the journal for the next open. */
  close(): void {
    clearTimeout(this.flushTimer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
