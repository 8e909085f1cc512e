import { arrow } from "./arrow.js";
import { type Connection, type Table, openOrCreate, sqlIn, sqlString } from "./db.js";
import { WriteQueue } from "./write-queue.js";

type Op<T> = { kind: "put"; id: string; doc: T; group: string } | { kind: "delete"; id: string } | { kind: "deleteGroup"; group: string };

const { Field, Schema, Utf8 } = arrow;
/** `grp` lets a document belong to a group (a field to its resource) for bulk reads and deletes. */
const SCHEMA = new Schema([new Field("id", new Utf8(), false), new Field("grp", new Utf8(), false), new Field("doc", new Utf8(), false)]);

/** Batched, serialised writes of JSON documents to one LanceDB table. */
class DocWriter<T> {
  private readonly queue: WriteQueue<Op<T>>;
  private commits = 0;

  constructor(readonly table: Table) {
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
    // Applied in order, but consecutive puts are merged into one commit.
    let puts = new Map<string, Extract<Op<T>, { kind: "put" }>>();
    const flush = async () => {
      if (!puts.size) return;
      const rows = [...puts.values()].map((p) => ({ id: p.id, grp: p.group, doc: JSON.stringify(p.doc) }));
      await this.table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
      puts = new Map();
    };
    for (const op of ops) {
      if (op.kind === "put") {
        puts.set(op.id, op);
        continue;
      }
      await flush();
      await this.table.delete(op.kind === "delete" ? sqlIn("id", [op.id]) : `grp = ${sqlString(op.group)}`);
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
    const t = new DocTable<T>(new DocWriter<T>(table));
    for (const row of await table.query().select(["id", "doc"]).toArray()) {
      t.cache.set(row.id as string, JSON.parse(row.doc as string) as T);
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

/**
 * JSON documents grouped (e.g. fields by resource) and read on demand: for large records such as
 * field values with their extracted text, which must not all sit in memory.
 */
export class GroupedDocTable<T> {
  private constructor(private readonly writer: DocWriter<T>) {}

  static async open<T>(db: Connection, name: string): Promise<GroupedDocTable<T>> {
    return new GroupedDocTable<T>(new DocWriter<T>(await openOrCreate(db, name, SCHEMA)));
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
    const rows = await this.writer.table.query().where(`grp = ${sqlString(group)}`).select(["id", "doc"]).toArray();
    return new Map(rows.map((r) => [r.id as string, JSON.parse(r.doc as string) as T]));
  }

  put(id: string, group: string, doc: T): Promise<void> {
    return this.writer.push({ kind: "put", id, doc, group });
  }
  delete(id: string): Promise<void> {
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
