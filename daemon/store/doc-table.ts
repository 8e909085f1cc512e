import { arrow } from "./arrow.js";
import { type Connection, type Table, openOrCreate, sqlIn, sqlString } from "./db.js";
import { MintedKeys } from "./minted.js";
import { WriteQueue } from "./write-queue.js";

type Op<T> = { kind: "put"; id: string; doc: T; group: string } | { kind: "delete"; id: string } | { kind: "deleteGroup"; group: string };

const { Field, Schema, Utf8 } = arrow;
/** `grp` lets a document belong to a group (a field to its resource) for bulk reads and deletes. */
const SCHEMA = new Schema([new Field("id", new Utf8(), false), new Field("grp", new Utf8(), false), new Field("doc", new Utf8(), false)]);

/**
 * What a writer knows of the ids on disk: a put of an id certainly absent is appended (one cheap
 * commit) instead of merged (a join against the whole table). When unsure, it merges.
 */
interface Presence {
  absent(id: string, group: string): boolean;
  stored(id: string, group: string): void;
  deleted(op: { id: string } | { group: string }): void;
}

const unknown: Presence = { absent: () => false, stored: () => undefined, deleted: () => undefined };

/** Batched, serialised writes of JSON documents to one LanceDB table. */
class DocWriter<T> {
  private readonly queue: WriteQueue<Op<T>>;
  private commits = 0;

  constructor(
    readonly table: Table,
    private readonly presence: Presence = unknown,
  ) {
    this.queue = new WriteQueue((ops) => this.commit(ops));
  }

  push(op: Op<T>): Promise<void> {
    return this.queue.push(op);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(reason?: string): void {
    this.queue.close(reason);
  }

  private async commit(ops: Op<T>[]): Promise<void> {
    // Applied in order, but consecutive puts are merged into one commit (two when some are new).
    let puts = new Map<string, Extract<Op<T>, { kind: "put" }>>();
    const rows = (ps: Extract<Op<T>, { kind: "put" }>[]) => ps.map((p) => ({ id: p.id, grp: p.group, doc: JSON.stringify(p.doc) }));
    const flush = async () => {
      if (!puts.size) return;
      const all = [...puts.values()];
      puts = new Map();
      const added = all.filter((p) => this.presence.absent(p.id, p.group));
      const merged = all.filter((p) => !added.includes(p));
      if (added.length) {
        await this.table.add(rows(added));
        for (const p of added) this.presence.stored(p.id, p.group);
      }
      if (merged.length) await this.table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows(merged));
      for (const p of merged) this.presence.stored(p.id, p.group);
    };
    for (const op of ops) {
      if (op.kind === "put") {
        puts.set(op.id, op);
        continue;
      }
      await flush();
      await this.table.delete(op.kind === "delete" ? sqlIn("id", [op.id]) : `grp = ${sqlString(op.group)}`);
      this.presence.deleted(op.kind === "delete" ? { id: op.id } : { group: op.group });
    }
    await flush();
    this.commits += 1;
    // Compaction runs inside the queue so that it never races one of our commits.
    if (this.commits % 200 === 0) await compact(this.table);
  }
}

/** Merge small fragments; versions are kept an hour for readers and backups. */
export async function compact(table: Table): Promise<void> {
  await table.optimize({ cleanupOlderThan: new Date(Date.now() - 3600_000) }).catch(() => undefined);
}

/**
 * A table of JSON documents keyed by id, fully cached in memory: for small, hot records (knowledge
 * boxes, resources, accounts, configurations). A write resolves after its LanceDB commit, so an
 * acknowledged write survives a kill -9; readers see it at once.
 */
export class DocTable<T> {
  private readonly cache = new Map<string, T>();
  private rev = 0;
  private constructor(private readonly writer: DocWriter<T>) {}

  static async open<T>(db: Connection, name: string): Promise<DocTable<T>> {
    const table = await openOrCreate(db, name, SCHEMA);
    // The ids on disk (the cache runs ahead of them: it holds puts not yet committed).
    const onDisk = new Set<string>();
    const presence: Presence = {
      absent: (id) => !onDisk.has(id),
      stored: (id) => onDisk.add(id),
      deleted: (op) => "id" in op && onDisk.delete(op.id),
    };
    const t = new DocTable<T>(new DocWriter<T>(table, presence));
    for (const row of await table.query().select(["id", "doc"]).toArray()) {
      t.cache.set(row.id as string, JSON.parse(row.doc as string) as T);
      onDisk.add(row.id as string);
    }
    return t;
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

  put(id: string, doc: T): Promise<void> {
    this.rev++;
    this.cache.set(id, doc);
    return this.writer.push({ kind: "put", id, doc, group: "" });
  }

  delete(id: string): Promise<void> {
    this.rev++;
    this.cache.delete(id);
    return this.writer.push({ kind: "delete", id });
  }

  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Refuse later writes (see WriteQueue.close). */
  close(reason?: string): void {
    this.writer.close(reason);
  }
}

/** How many new groups keep their documents in memory until first read, at most (see GroupedDocTable.group). */
const CACHED_GROUPS = 256;

/**
 * JSON documents grouped (e.g. fields by resource) and read on demand: for large records such as
 * field values with their extracted text, which must not all sit in memory.
 */
export class GroupedDocTable<T> {
  /** Groups minted by this process (resources just created) and their documents written since. */
  private readonly fresh = new MintedKeys();
  /** All the documents of a few minted groups, until the group is first read: that read needs no query. */
  private readonly unread = new Map<string, Map<string, T>>();
  private readonly writer: DocWriter<T>;

  private constructor(table: Table) {
    this.writer = new DocWriter<T>(table, {
      absent: (id, group) => this.fresh.absent(group, id),
      stored: (id, group) => this.fresh.written(group, id),
      deleted: (op) => {
        if ("group" in op) {
          this.fresh.forget(op.group);
          this.unread.delete(op.group);
        } else this.fresh.deleted(op.id);
      },
    });
  }

  static async open<T>(db: Connection, name: string): Promise<GroupedDocTable<T>> {
    return new GroupedDocTable<T>(await openOrCreate(db, name, SCHEMA));
  }

  /** Declare a group that was just minted (a new resource id): none of its documents is on disk yet. */
  markNew(group: string): void {
    this.fresh.mint(group);
    // Oldest out (a group that is never read must not hold its place): its read will simply query.
    if (this.unread.size >= CACHED_GROUPS) this.unread.delete(this.unread.keys().next().value as string);
    this.unread.set(group, new Map());
  }

  get table(): Table {
    return this.writer.table;
  }

  async get(id: string): Promise<T | undefined> {
    await this.writer.idle();
    const rows = await this.writer.table.query().where(`id = ${sqlString(id)}`).select(["doc"]).limit(1).toArray();
    return rows.length ? (JSON.parse(rows[0].doc as string) as T) : undefined;
  }

  async group(group: string): Promise<Map<string, T>> {
    await this.writer.idle();
    const docs = this.unread.get(group);
    if (docs) {
      this.unread.delete(group);
      return new Map([...docs].map(([id, doc]) => [id, structuredClone(doc)]));
    }
    const rows = await this.writer.table.query().where(`grp = ${sqlString(group)}`).select(["id", "doc"]).toArray();
    return new Map(rows.map((r) => [r.id as string, JSON.parse(r.doc as string) as T]));
  }

  put(id: string, group: string, doc: T): Promise<void> {
    this.unread.get(group)?.set(id, doc);
    return this.writer.push({ kind: "put", id, doc, group });
  }

  /**
   * Up to `limit` documents whose JSON text contains `text` (a full scan, for rare checks such as "is
   * X still used"). `%` and `_` in `text` match like SQL LIKE wildcards: callers check what they get.
   */
  async containing(text: string, limit: number): Promise<T[]> {
    await this.writer.idle();
    const rows = await this.writer.table.query().where(`doc LIKE ${sqlString(`%${text}%`)}`).select(["doc"]).limit(limit).toArray();
    return rows.map((r) => JSON.parse(r.doc as string) as T);
  }
  delete(id: string): Promise<void> {
    for (const docs of this.unread.values()) docs.delete(id);
    return this.writer.push({ kind: "delete", id });
  }
  deleteGroup(group: string): Promise<void> {
    return this.writer.push({ kind: "deleteGroup", group });
  }
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Refuse later writes (see WriteQueue.close). */
  close(reason?: string): void {
    this.writer.close(reason);
  }
}
