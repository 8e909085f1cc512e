import * as lancedb from "@lancedb/lancedb";
import { arrow, tableOf, ZSTD } from "./arrow.js";
import { appendRows, type Connection, openOrCreate, sqlIn, sqlIntegers, sqlString, type Table } from "./db.js";
import { MintedKeys } from "./minted.js";
import { Settler, VERSION_RETENTION_MS } from "./settle.js";
import { WriteQueue } from "./write-queue.js";

type Op<T> =
  | {
      kind: "put";
      id: string;
      doc: T;
      group: string;
      fresh?: boolean;
      json?: string;
      /** Told the table's version just before the commit that writes this put (see GroupedDocTable.replacing). */
      based?: (version: number) => void;
    }
  | { kind: "delete"; id: string }
  | { kind: "deleteGroup"; group: string };

const { Field, Int64, Schema, Utf8 } = arrow;

/** Told of every change to a document table's cache: the document before and after (undefined: none). */
export type DocObserver<T> = (id: string, before: T | undefined, after: T | undefined) => void;

/**
 * A row per version of a document: `grp` lets a document belong to a group (a field to its resource)
 * for bulk reads and deletes; `seq` orders versions, and readers take each id's highest.
 */
const SCHEMA = new Schema([
  new Field("id", new Utf8(), false),
  new Field("grp", new Utf8(), false),
  new Field("doc", new Utf8(), false, ZSTD),
  new Field("seq", new Int64(), false),
]);

/** A table with versions: a document table opened by this kbox (a `seq` column). */
async function versioned(table: Table): Promise<boolean> {
  return (await table.schema()).fields.some((f) => f.name === "seq");
}

/** Open (creating) a document table; one from before versions gets the `seq` column, its rows being version 0. */
async function openVersioned(db: Connection, name: string): Promise<Table> {
  const table = await openOrCreate(db, name, SCHEMA);
  if (!(await versioned(table))) await table.addColumns([{ name: "seq", valueSql: "CAST(0 AS BIGINT)" }]);
  return table;
}

/**
 * BTREE indexes on a grouped table's `id` and `grp`: a read of one document or group looks it up
 * instead of scanning every fragment of the table (16 ms at 20,000 records in 150 fragments, 1–2 ms
 * with the index; a saved file's field record is read on every save). Compactions fold new rows in.
 * A table from before them gets them in the background (reads meanwhile scan, as before); an index
 * that cannot be built leaves reads scanning.
 */
async function indexKeys(table: Table): Promise<void> {
  const have = new Set((await table.listIndices()).map((i) => i.columns[0]));
  const missing = ["id", "grp"].filter((c) => !have.has(c));
  if (!missing.length) return;
  const build = async () => {
    for (const c of missing) await table.createIndex(c, { config: lancedb.Index.btree(), replace: false });
  };
  if ((await table.countRows()) === 0) await build().catch(() => undefined);
  else void build().catch(() => undefined);
}

/** The highest version among `rows` (0 when none). */
function maxSeq(rows: Iterable<{ seq: unknown }>): number {
  let seq = 0;
  for (const r of rows) seq = Math.max(seq, Number(r.seq));
  return seq;
}

/** The highest version of each id among `rows`, the ids that also had older versions, and those versions' numbers. */
function latestOf<R extends { id: unknown; seq: unknown }>(
  rows: R[],
): { latest: Map<string, R>; stale: Set<string>; older: number[] } {
  const latest = new Map<string, R>();
  const stale = new Set<string>();
  const older: number[] = [];
  for (const r of rows) {
    const id = r.id as string;
    const cur = latest.get(id);
    if (cur) {
      stale.add(id);
      older.push(Math.min(Number(r.seq), Number(cur.seq)));
    }
    if (!cur || Number(r.seq) > Number(cur.seq)) latest.set(id, r);
  }
  return { latest, stale, older };
}

/**
 * What a writer knows of the ids on disk: the versions of an id when certainly known (none: a put
 * leaves nothing behind; some: the next sweep deletes those by number, without reading the table).
 * When unsure, the put is noted and the next sweep reads which versions it superseded.
 */
interface Presence {
  versions(id: string, group: string): number[] | undefined;
  stored(id: string, group: string, seq: number): void;
  deleted(op: { id: string } | { group: string }): void;
}

const unknown: Presence = { versions: () => undefined, stored: () => undefined, deleted: () => undefined };

/** Superseded versions are deleted once this many ids have some (or a second after writes stop). */
const SWEEP_IDS = 500;

/**
 * Batched, serialised writes of JSON documents to one LanceDB table. Every put is an append of a new
 * version: one cheap commit, where updating the row in place (a merge-insert, a join against the
 * whole table) cost about twice as much and was most of what ingestion spent writing records.
 */
class DocWriter<T> {
  private readonly queue: WriteQueue<Op<T>>;
  private commits = 0;
  /** Ids given a new version over an older one (or found with several): the next sweep deletes the older. */
  private superseded = new Set<string>();
  /** Versions known to be superseded (by number): the next sweep deletes them without a read. */
  private obsolete: number[] = [];
  private sweepTimer: NodeJS.Timeout | undefined;
  private schema?: Promise<InstanceType<typeof Schema>>;
  /** Compaction and cleanup of old versions once writes settle. */
  private readonly settler: Settler;

  constructor(
    readonly table: Table,
    /** The highest version on disk: known, or read at the first put (a scan of the column). */
    private seq: number | (() => Promise<number>),
    private readonly presence: Presence = unknown,
    /**
     * Versions from the clock (µs since the epoch, never below the last): for a table several daemons
     * write (data on object storage), where each one's counter alone would order their versions wrongly.
     */
    private readonly clock = false,
  ) {
    this.queue = new WriteQueue((ops) => this.commit(ops));
    this.settler = new Settler(() => this.queue.exclusive(() => compact(this.table)));
  }

  push(op: Op<T>): Promise<void> {
    return this.queue.push(op);
  }

  /** Run `fn` between commits. */
  exclusive<R>(fn: () => Promise<R>): Promise<R> {
    return this.queue.exclusive(fn);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(reason?: string): void {
    clearTimeout(this.sweepTimer);
    this.settler.close();
    this.queue.close(reason);
  }

  /** Nothing of this writer is running any more (see WriteQueue.stopped). */
  stopped(): Promise<void> {
    return this.queue.stopped();
  }

  /**
   * A read found older versions (ids, and their numbers): a coming sweep deletes them, by number where
   * this process alone numbers versions (a shared table's ids are read again: see `clock`).
   */
  found(ids: Set<string>, older: number[]): void {
    if (this.clock) this.stale(ids);
    else if (older.length) {
      this.obsolete.push(...older);
      this.sweepSoon();
    }
  }

  /** These ids may have versions below their latest: a coming sweep deletes them. */
  stale(ids: Iterable<string>): void {
    for (const id of ids) this.superseded.add(id);
    this.sweepSoon();
  }

  private sweepSoon(): void {
    if ((this.superseded.size || this.obsolete.length) && !this.sweepTimer) {
      this.sweepTimer = setTimeout(() => {
        this.sweepTimer = undefined;
        void this.queue.exclusive(() => this.sweep()).catch(() => undefined);
      }, 1000);
      this.sweepTimer.unref();
    }
  }

  /**
   * Delete superseded versions: those known by number (a delete commit for up to 64 ranges of them),
   * then those of the noted ids (a read of their versions, then deletes for many ids at once). The
   * read scans the table's ids (no index): at 30,000 notes these reads were most of LanceDB's time,
   * hence the numbers.
   */
  private async sweep(): Promise<void> {
    if (this.obsolete.length) {
      const seqs = this.obsolete;
      this.obsolete = [];
      for (const where of sqlIntegers("seq", seqs)) await this.table.delete(where);
    }
    if (!this.superseded.size) return;
    const ids = this.superseded;
    this.superseded = new Set();
    const rows = await this.table.query().where(sqlIn("id", ids)).select(["id", "seq"]).toArray();
    const { latest } = latestOf(rows);
    const old = rows.filter((r) => latest.get(r.id as string) !== r);
    if (!old.length) return;
    // This process numbers versions alone: a version names one row, deleted by number (ranges of
    // consecutive ones: see sqlIntegers; an OR of (id, seq) pairs cost a comparison per pair a row, 5x
    // slower at 20,000 rows). A table several daemons write may see the same number twice (see
    // `clock`): by id and version.
    const wheres = this.clock
      ? [old.map((r) => `(id = ${sqlString(r.id as string)} AND seq = ${String(r.seq)})`).join(" OR ")]
      : sqlIntegers(
          "seq",
          old.map((r) => Number(r.seq)),
        );
    for (const where of wheres) await this.table.delete(where);
  }

  private async commit(ops: Op<T>[]): Promise<void> {
    // Applied in order; consecutive puts are one append.
    let puts = new Map<string, Extract<Op<T>, { kind: "put" }>>();
    let based: ((version: number) => void)[] = [];
    const flush = async () => {
      if (!puts.size) return;
      const all = [...puts.values()];
      puts = new Map();
      if (based.length) {
        const version = await this.table.version();
        for (const fn of based) fn(version);
        based = [];
      }
      if (typeof this.seq === "function") this.seq = await this.seq();
      const first = this.clock ? Math.max(this.seq + 1, Date.now() * 1000) : this.seq + 1;
      const rows = all.map((p, i) => ({ id: p.id, grp: p.group, doc: p.json ?? JSON.stringify(p.doc), seq: BigInt(first + i) }));
      this.schema ??= this.table.schema();
      const schema = await this.schema.catch((e) => {
        this.schema = undefined;
        throw e;
      });
      await appendRows(this.table, tableOf(schema, rows));
      this.seq = first + all.length - 1;
      const over: string[] = [];
      all.forEach((p, i) => {
        const before = p.fresh ? [] : this.presence.versions(p.id, p.group);
        // Another daemon's versions of a shared table are not known here: its ids are read.
        if (before === undefined || (this.clock && before.length)) over.push(p.id);
        else this.obsolete.push(...before);
        this.presence.stored(p.id, p.group, first + i);
      });
      this.stale(over);
    };
    for (const op of ops) {
      if (op.kind === "put") {
        puts.set(op.id, op);
        if (op.based) based.push(op.based);
        continue;
      }
      await flush();
      await this.table.delete(op.kind === "delete" ? sqlIn("id", [op.id]) : `grp = ${sqlString(op.group)}`);
      this.presence.deleted(op.kind === "delete" ? { id: op.id } : { group: op.group });
    }
    await flush();
    if (this.superseded.size + this.obsolete.length >= SWEEP_IDS) await this.sweep();
    this.commits += 1;
    // Compaction runs inside the queue so that it never races one of our commits.
    if (this.commits % 200 === 0) await compact(this.table);
    this.settler.wrote();
  }
}

/**
 * The records of a table: its rows, but for a document table (a row per version until a sweep) its
 * distinct ids.
 */
export async function countRecords(table: Table): Promise<number> {
  if (!(await versioned(table))) return table.countRows();
  return new Set((await table.query().select(["id"]).toArray()).map((r) => r.id as string)).size;
}

/** Merge small fragments and drop versions past the retention (backups tag the versions they copy). */
export async function compact(table: Table): Promise<void> {
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - VERSION_RETENTION_MS) }).catch(() => undefined);
}

/**
 * A table of JSON documents keyed by id, fully cached in memory: for small, hot records (knowledge
 * boxes, resources, accounts, configurations). A write resolves after its LanceDB commit, so an
 * acknowledged write survives a kill -9; readers see it at once.
 */
export class DocTable<T> {
  private readonly cache = new Map<string, T>();
  private rev = 0;
  /** The version of each id this cache holds from disk (for refresh). */
  private readonly seen = new Map<string, number>();
  /** Ids with a put or delete not yet committed: a refresh leaves them as this process has them. */
  private readonly pending = new Map<string, number>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private tableVersion = -1;
  private readonly observers: DocObserver<T>[] = [];
  private constructor(private readonly writer: DocWriter<T>) {}

  /**
   * Open a table; with `refreshMs` (data on object storage, shared by several daemons) its versions
   * come from the clock and the cache is brought up to date with other daemons' commits that often.
   */
  static async open<T>(db: Connection, name: string, refreshMs?: number): Promise<DocTable<T>> {
    const table = await openVersioned(db, name);
    // Every id on disk with its latest version (the cache runs ahead of them: it holds puts not yet committed).
    const onDisk = new Map<string, number>();
    const presence: Presence = {
      versions: (id) => {
        const seq = onDisk.get(id);
        return seq === undefined ? [] : [seq];
      },
      stored: (id, _group, seq) => onDisk.set(id, seq),
      deleted: (op) => "id" in op && onDisk.delete(op.id),
    };
    const { latest, stale, older } = latestOf(await table.query().select(["id", "doc", "seq"]).toArray());
    const t = new DocTable<T>(new DocWriter<T>(table, maxSeq(latest.values()), presence, refreshMs !== undefined));
    for (const [id, row] of latest) {
      t.cache.set(id, JSON.parse(row.doc as string) as T);
      t.seen.set(id, Number(row.seq));
      onDisk.set(id, Number(row.seq));
    }
    if (stale.size) t.writer.found(stale, older); // left by a stop before the last sweep
    if (refreshMs !== undefined) t.startRefresh(refreshMs);
    return t;
  }

  private startRefresh(ms: number): void {
    const tick = () => {
      this.refreshTimer = setTimeout(() => {
        void this.refresh()
          .catch(() => undefined)
          .finally(() => this.refreshTimer !== undefined && tick());
      }, ms);
      this.refreshTimer.unref();
    };
    tick();
  }

  /**
   * Bring the cache up to date with the table (other daemons' commits): ids whose latest version
   * changed are read again, ids gone are dropped; ids this process is writing are left alone. Runs
   * between this process's commits, so everything it committed is on disk.
   */
  async refresh(): Promise<void> {
    await this.writer.exclusive(async () => {
      const table = this.writer.table;
      const version = await table.version();
      if (version === this.tableVersion) return;
      const { latest } = latestOf(await table.query().select(["id", "seq"]).toArray());
      const changed = [...latest]
        .filter(([id, r]) => !this.pending.has(id) && this.seen.get(id) !== Number(r.seq))
        .map(([id]) => id);
      const gone = [...this.seen.keys()].filter((id) => !latest.has(id) && !this.pending.has(id));
      for (const id of gone) {
        this.seen.delete(id);
        this.changed(id, undefined);
      }
      if (changed.length) {
        const rows = latestOf(await table.query().where(sqlIn("id", changed)).select(["id", "doc", "seq"]).toArray()).latest;
        for (const [id, r] of rows) {
          if (this.pending.has(id)) continue;
          this.changed(id, JSON.parse(r.doc as string) as T);
          this.seen.set(id, Number(r.seq));
        }
      }
      if (changed.length || gone.length) this.rev++;
      this.tableVersion = version;
    });
  }

  /** Count `id` pending until `p` settles. */
  private track(id: string, p: Promise<void>): Promise<void> {
    this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
    const done = () => {
      const n = (this.pending.get(id) ?? 1) - 1;
      if (n > 0) this.pending.set(id, n);
      else this.pending.delete(id);
    };
    p.then(done, done);
    return p;
  }

  get table(): Table {
    return this.writer.table;
  }
  get(id: string): T | undefined {
    return this.cache.get(id);
  }
  has(id: string): boolean {
    return this.cache.has(id);
  }
  values(): IterableIterator<T> {
    return this.cache.values();
  }
  get size(): number {
    return this.cache.size;
  }
  /** Changes with every put and delete: lets readers cache what they derive from the documents. */
  get revision(): number {
    return this.rev;
  }

  /**
   * Follow the cache (an index derived from the documents): `fn` is told of every document now held,
   * then of every put, delete and refresh. Documents are never changed in place: a put passes a new one.
   */
  observe(fn: DocObserver<T>): void {
    for (const [id, doc] of this.cache) fn(id, undefined, doc);
    this.observers.push(fn);
  }

  /** Set (or, with undefined, drop) an id's document in the cache, and tell the observers. */
  private changed(id: string, doc: T | undefined): void {
    const before = this.cache.get(id);
    if (doc === undefined) this.cache.delete(id);
    else this.cache.set(id, doc);
    if (before === undefined && doc === undefined) return;
    for (const fn of this.observers) fn(id, before, doc);
  }

  put(id: string, doc: T): Promise<void> {
    this.rev++;
    this.changed(id, doc);
    // A refresh must not take our own commit for another daemon's: it reads the id again, harmlessly.
    this.seen.delete(id);
    return this.track(id, this.writer.push({ kind: "put", id, doc, group: "" }));
  }

  delete(id: string): Promise<void> {
    this.rev++;
    this.changed(id, undefined);
    this.seen.delete(id);
    return this.track(id, this.writer.push({ kind: "delete", id }));
  }

  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Refuse later writes (see WriteQueue.close). */
  close(reason?: string): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.writer.close(reason);
  }

  /** Once closed: resolves when no commit, sweep or compaction of this table is still running. */
  stopped(): Promise<void> {
    return this.writer.stopped();
  }
}

/**
 * How many new groups keep their documents in memory until first read, at most, and their size (JSON)
 * (see GroupedDocTable.group). A folder sync mints resources faster than ingestion reads their field
 * records: with 256 groups, each ingestion batch read them with a scan of the table (`grp IN`), which
 * grew with the box (13.5 s of LanceDB's time at 30,000 notes).
 */
const CACHED_GROUPS = 16_384;
const CACHED_BYTES = 32 * 2 ** 20;

/**
 * How many documents written lately (to groups not held whole) stay in memory, at most, and their size
 * (JSON): a saved file's field record is read back by its ingestion a few milliseconds after its update
 * wrote it, and a query for it scans the table (10–20 ms at 10,000 notes, growing with the box).
 */
const RECENT_DOCS = 1024;
const RECENT_BYTES = 4 * 2 ** 20;

/**
 * JSON documents grouped (e.g. fields by resource) and read on demand: for large records such as
 * field values with their extracted text, which must not all sit in memory.
 */
export class GroupedDocTable<T> {
  /** Groups minted by this process (resources just created) and their documents written since. */
  private readonly fresh = new MintedKeys();
  /**
   * All the documents of minted groups, with their size (JSON), until the group is first read: that
   * read needs no query.
   */
  private readonly unread = new Map<string, { docs: Map<string, T>; bytes: number }>();
  private unreadBytes = 0;
  /**
   * The JSON of documents put lately to other groups, by id, oldest first (none for a table several
   * daemons write: another one may have written since). A put whose commit fails takes its entry out.
   */
  private readonly recent = new Map<string, { group: string; json: string }>();
  private recentBytes = 0;
  private readonly shared: boolean;
  private readonly writer: DocWriter<T>;
  /**
   * Writes queued and not yet committed, by group (and deletes by id, whose group is unknown): a read
   * waits for the writer only when one of them touches what it reads, not behind every busy commit.
   */
  private readonly pending = new Map<string, number>();
  private pendingById = 0;

  private constructor(
    table: Table,
    shared: boolean,
    /** Opens another handle on the table (to read an earlier version of it). */
    private readonly reopen: () => Promise<Table>,
  ) {
    this.shared = shared;
    // Reading the versions waits for the first write: opening a knowledge box stays a manifest read.
    const highest = async () => maxSeq(await table.query().select(["seq"]).toArray());
    this.writer = new DocWriter<T>(
      table,
      highest,
      {
        versions: (id, group) => this.fresh.versions(group, id),
        stored: (id, group, seq) => this.fresh.written(group, id, seq),
        deleted: (op) => {
          if ("group" in op) {
            this.fresh.forget(op.group);
            this.forgetGroup(op.group);
          } else this.fresh.deleted(op.id);
        },
      },
      shared,
    );
  }

  /** Open a table; `shared`: several daemons write it (data on object storage), see DocWriter's `clock`. */
  static async open<T>(db: Connection, name: string, shared = false): Promise<GroupedDocTable<T>> {
    const table = await openVersioned(db, name);
    await indexKeys(table);
    return new GroupedDocTable<T>(table, shared, () => db.openTable(name));
  }

  /** Declare a group that was just minted (a new resource id): none of its documents is on disk yet. */
  markNew(group: string): void {
    this.fresh.mint(group);
    // Oldest out (a group that is never read must not hold its place): its read will simply query.
    this.forgetGroup(group);
    this.unread.set(group, { docs: new Map(), bytes: 0 });
    this.trim();
  }

  get table(): Table {
    return this.writer.table;
  }

  async get(id: string): Promise<T | undefined> {
    // A document put lately (a file saved again while it is being edited) needs no query.
    const hit = this.recent.get(id);
    if (hit) {
      await this.settled([hit.group]);
      const json = this.recent.get(id)?.json;
      if (json !== undefined) return JSON.parse(json) as T;
    }
    return (await this.latest(`id = ${sqlString(id)}`)).get(id);
  }

  async group(group: string): Promise<Map<string, T>> {
    await this.settled([group]);
    return this.takeUnread(group) ?? this.query(`grp = ${sqlString(group)}`);
  }

  /** A cached group's documents (copies: the caller may change them), taken out of the cache; undefined when not cached. */
  private takeUnread(group: string): Map<string, T> | undefined {
    const docs = this.unread.get(group)?.docs;
    if (!docs) return undefined;
    this.forgetGroup(group);
    return new Map([...docs].map(([id, doc]) => [id, structuredClone(doc)]));
  }

  /**
   * Documents by id (each with its group), for reading a few fields of many resources at once: those of
   * groups held whole (resources just created: every document of such a group is returned, and the
   * group leaves memory, read once) and those put lately come from memory, the rest from one query.
   */
  async docs(wanted: Iterable<readonly [group: string, id: string]>): Promise<Map<string, T>> {
    const list = [...wanted];
    await this.settled(list.map(([group]) => group));
    const out = new Map<string, T>();
    const query = new Set<string>();
    const held = new Set<string>(); // groups taken whole: an id of theirs not in `out` has no document
    for (const [group, id] of list) {
      if (out.has(id) || held.has(group)) continue;
      const whole = this.takeUnread(group);
      if (whole) {
        held.add(group);
        for (const [k, doc] of whole) out.set(k, doc);
        continue;
      }
      const json = this.recent.get(id)?.json;
      if (json !== undefined) out.set(id, JSON.parse(json) as T);
      else query.add(id);
    }
    const ids = [...query];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.writer.table
        .query()
        .where(sqlIn("id", ids.slice(i, i + 500)))
        .select(["id", "doc", "seq"])
        .toArray();
      const { latest, stale, older } = latestOf(rows);
      if (stale.size) this.writer.found(stale, older);
      for (const [id, r] of latest) out.set(id, JSON.parse(r.doc as string) as T);
    }
    return out;
  }

  /**
   * The latest version of every document whose rows match `where`, a condition on `id` and `grp`
   * only (every version of a document has the same), by id.
   */
  async latest(where: string): Promise<Map<string, T>> {
    await this.writer.idle();
    return this.query(where);
  }

  private async query(where: string): Promise<Map<string, T>> {
    const { latest, stale, older } = latestOf(
      await this.writer.table.query().where(where).select(["id", "doc", "seq"]).toArray(),
    );
    if (stale.size) this.writer.found(stale, older);
    return new Map([...latest].map(([id, r]) => [id, JSON.parse(r.doc as string) as T]));
  }

  put(id: string, group: string, doc: T): Promise<void> {
    return this.queuePut(id, group, doc);
  }

  /** Keep a document in memory and queue its put (`based`: see Op); one that fails takes it out of memory. */
  private queuePut(id: string, group: string, doc: T, based?: (version: number) => void): Promise<void> {
    const json = this.cache(id, group, doc) ?? this.remember(id, group, doc);
    const write = this.writer.push({ kind: "put", id, doc, group, json, based });
    return this.track(
      group,
      json === undefined
        ? write
        : write.catch((e) => {
            if (this.recent.get(id)?.json === json) this.forgetRecent(id);
            throw e;
          }),
    );
  }

  /**
   * Put a document, and learn the one it replaces without waiting for it: resolves once the put is
   * committed, with a reader of the previous document (undefined: none). That is the one in memory
   * when it was put lately, else the table's as it was just before the commit (a version kept
   * for minutes): the put never waits for the read, and a write queued before it is what it replaces.
   */
  async replacing(id: string, group: string, doc: T): Promise<() => Promise<T | undefined>> {
    // In memory: a group held whole has every document (null: none), else one put lately.
    const whole = this.unread.get(group)?.docs;
    const lately = whole ? (whole.has(id) ? JSON.stringify(whole.get(id)) : null) : this.recent.get(id)?.json;
    let version: number | undefined;
    await this.queuePut(id, group, doc, (v) => (version = v));
    if (lately === null) return async () => undefined;
    if (lately !== undefined) return async () => JSON.parse(lately) as T;
    return () => (version === undefined ? Promise.resolve(undefined) : this.at(version, id));
  }

  /** A document as it was at a version of the table (from another handle: this one stays on the latest). */
  private async at(version: number, id: string): Promise<T | undefined> {
    const t = await this.reopen();
    try {
      await t.checkout(version);
      const rows = await t
        .query()
        .where(`id = ${sqlString(id)}`)
        .select(["id", "doc", "seq"])
        .toArray();
      const row = latestOf(rows).latest.get(id);
      return row ? (JSON.parse(row.doc as string) as T) : undefined;
    } finally {
      t.close();
    }
  }

  /** Keep a document put to a group not held whole, newest last (its JSON, returned, is also what the writer stores). */
  private remember(id: string, group: string, doc: T): string | undefined {
    if (this.shared) return undefined;
    const json = JSON.stringify(doc);
    this.forgetRecent(id);
    this.recent.set(id, { group, json });
    this.recentBytes += json.length;
    while (this.recent.size > RECENT_DOCS || (this.recentBytes > RECENT_BYTES && this.recent.size > 1))
      this.forgetRecent(this.recent.keys().next().value as string);
    return json;
  }

  private forgetRecent(id: string): void {
    const had = this.recent.get(id);
    if (!had) return;
    this.recentBytes -= had.json.length;
    this.recent.delete(id);
  }

  /** Keep a document of a cached group (its JSON, returned, is also what the writer stores). */
  private cache(id: string, group: string, doc: T): string | undefined {
    const cached = this.unread.get(group);
    if (!cached) return undefined;
    const json = JSON.stringify(doc);
    cached.docs.set(id, doc);
    cached.bytes += json.length;
    this.unreadBytes += json.length;
    this.trim();
    return json;
  }

  /** Oldest groups out (a group that is never read must not hold its place): their reads will simply query. */
  private trim(): void {
    while (this.unread.size > CACHED_GROUPS || (this.unreadBytes > CACHED_BYTES && this.unread.size > 1)) {
      this.forgetGroup(this.unread.keys().next().value as string);
    }
  }

  private forgetGroup(group: string): void {
    this.unreadBytes -= this.unread.get(group)?.bytes ?? 0;
    this.unread.delete(group);
  }

  /**
   * Write a document under an id never written before (an entry appended to a log): no older version
   * can exist, so none is looked for (a put of an id it does not know has the next sweep read them).
   */
  append(id: string, group: string, doc: T): Promise<void> {
    const json = this.cache(id, group, doc);
    return this.track(group, this.writer.push({ kind: "put", id, doc, group, fresh: true, json }));
  }

  /** Wait for the queued writes when one of them may touch these groups (read your own writes). */
  private async settled(groups: Iterable<string>): Promise<void> {
    if (this.pendingById) return this.writer.idle();
    for (const g of groups) if (this.pending.has(g)) return this.writer.idle();
  }

  private track(group: string | undefined, write: Promise<void>): Promise<void> {
    if (group === undefined) this.pendingById += 1;
    else this.pending.set(group, (this.pending.get(group) ?? 0) + 1);
    const done = () => {
      if (group === undefined) this.pendingById -= 1;
      else {
        const n = (this.pending.get(group) ?? 1) - 1;
        if (n) this.pending.set(group, n);
        else this.pending.delete(group);
      }
    };
    return write.finally(done);
  }

  /**
   * Up to `limit` documents whose JSON text contains `text` (a full scan, for rare checks such as "is
   * X still used"): found by SQL LIKE, kept when their latest version holds `text` as it is.
   */
  async containing(text: string, limit: number): Promise<T[]> {
    await this.writer.idle();
    const hits = await this.writer.table
      .query()
      .where(`doc LIKE ${sqlString(`%${text}%`)}`)
      .select(["id"])
      .limit(limit)
      .toArray();
    if (!hits.length) return [];
    // A hit may be an older version of its document: only latest versions count, read again here (a
    // version written since the first read, or a sweep of the one it found, must not hide a document
    // that still holds the text).
    const { latest } = latestOf(
      await this.writer.table
        .query()
        .where(sqlIn("id", new Set(hits.map((h) => h.id as string))))
        .select(["id", "doc", "seq"])
        .toArray(),
    );
    return [...latest.values()].filter((r) => (r.doc as string).includes(text)).map((r) => JSON.parse(r.doc as string) as T);
  }
  delete(id: string): Promise<void> {
    for (const { docs } of this.unread.values()) docs.delete(id);
    this.forgetRecent(id);
    return this.track(undefined, this.writer.push({ kind: "delete", id }));
  }
  deleteGroup(group: string): Promise<void> {
    for (const [id, r] of this.recent) if (r.group === group) this.forgetRecent(id);
    return this.track(group, this.writer.push({ kind: "deleteGroup", group }));
  }
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Refuse later writes (see WriteQueue.close). */
  close(reason?: string): void {
    this.writer.close(reason);
  }

  /** Once closed: resolves when no commit, sweep or compaction of this table is still running. */
  stopped(): Promise<void> {
    return this.writer.stopped();
  }
}
