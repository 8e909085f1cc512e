import { mkdirSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable, Schema } from "apache-arrow";
import { arrow, ZSTD_KEY } from "./arrow.js";

export type Connection = lancedb.Connection;
export type Table = lancedb.Table;

export type Session = lancedb.Session;

/** The sizes of LanceDB's caches (settings KBOX_INDEX_CACHE_MB, KBOX_METADATA_CACHE_MB). */
export interface CacheSizes {
  indexCacheMb: number;
  metadataCacheMb: number;
}

const MB = 1024n * 1024n;

/**
 * One LanceDB session (its index and metadata caches) for every knowledge box of a store. By
 * default each connection would get its own caches of up to 6 GB of index data and 1 GB of file
 * metadata, which a long ingestion fills with the manifests of thousands of versions.
 */
export function openSession(sizes: CacheSizes): Session {
  return new lancedb.Session(BigInt(sizes.indexCacheMb) * MB, BigInt(sizes.metadataCacheMb) * MB);
}

/**
 * Open (creating) a LanceDB database folder, in `session` (without one, LanceDB's default caches:
 * for tests and tools that open a table or two). LanceDB's full-text index builder reads
 * LANCE_FTS_PARTITION_SIZE from the process environment: the daemon sets it at start (settings).
 */
export async function openDb(dir: string, session?: Session, remote?: RemoteDb): Promise<Connection> {
  if (!remote) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The session goes in the options: connect()'s third argument is not used for a local path.
  const options: Partial<lancedb.ConnectionOptions> = session ? { session } : {};
  if (remote) {
    options.storageOptions = remote.storageOptions;
    // Other daemons commit to the same tables: look for their versions at most this often.
    options.readConsistencyInterval = remote.refreshMs / 1000;
  }
  return lancedb.connect(dir, options);
}

/** A database on object storage (`dir` is then its URI). */
export interface RemoteDb {
  storageOptions: Record<string, string>;
  refreshMs: number;
}

/**
 * Open a table, creating it empty with `schema` when missing. A schema with a column compressed
 * with zstd (ZSTD in arrow.ts) makes a table of Lance's 2.0 file format: 2.1 compresses each large
 * value on its own (a JSON document of a kilobyte shrinks little), 2.0 compresses whole pages.
 */
export async function openOrCreate(db: Connection, name: string, schema: Schema): Promise<Table> {
  const names = await db.tableNames();
  if (names.includes(name)) return db.openTable(name);
  const pages = schema.fields.some((f) => f.metadata.get(ZSTD_KEY) === "zstd");
  const storageOptions = pages ? { new_table_data_storage_version: "2.0" } : undefined;
  return db.createEmptyTable(name, schema, { mode: "create", existOk: true, storageOptions });
}

/** The native table LanceDB's `Table` wraps (its `inner`), as far as appendRows calls it. */
interface NativeTable {
  add(ipc: Buffer, mode: string): Promise<unknown>;
}

/** The native table behind `table`, undefined where this LanceDB keeps it elsewhere. */
export function nativeTable(table: Table): NativeTable | undefined {
  const inner = (table as unknown as { inner?: Partial<NativeTable> }).inner;
  return typeof inner?.add === "function" ? (inner as NativeTable) : undefined;
}

/**
 * Append rows to a table in one commit: an Arrow table, or its Arrow IPC file form (the paragraph
 * journal's bytes, already serialised). LanceDB's `add` serialises the rows through Arrow's
 * asynchronous writer, one await a buffer, then copies the bytes twice (joined, then into a Buffer):
 * 76 MB of rows adding 10,000 notes, and these copies were 0.45 s of the daemon's thread (profile,
 * docs/benchmarks.md). Here they are serialised at once and the native table takes a view of them,
 * as LanceDB's own `add` hands it its copy. Where the native table is not found (another LanceDB
 * version), LanceDB's `add`.
 */
export async function appendRows(table: Table, rows: ArrowTable | Uint8Array): Promise<void> {
  const native = nativeTable(table);
  if (!native) {
    await table.add(rows instanceof Uint8Array ? arrow.tableFromIPC(rows) : rows);
    return;
  }
  const ipc = rows instanceof Uint8Array ? rows : arrow.tableToIPC(rows, "file");
  await native.add(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), "append");
}

/** SQL string literal for LanceDB filters. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** `col IN (...)` for a list of strings; false for an empty list. */
export function sqlIn(col: string, values: Iterable<string>): string {
  const list = [...values].map(sqlString);
  return list.length ? `${col} IN (${list.join(", ")})` : "false";
}

/**
 * Filters matching these integers of `col`, each for one statement (none for no integers): runs of
 * consecutive numbers as ranges, up to 64 a filter, and the numbers left as `IN` lists of up to 5,000.
 * LanceDB evaluates a delete's filter once a fragment, copying it each time: over 200 fragments,
 * `seq IN (5,000 numbers)` took 2.1 s, the same numbers as 20 ranges 65 ms.
 */
export function sqlIntegers(col: string, values: Iterable<number>): string[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const ranges: string[] = [];
  const singles: number[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    if (j > i) ranges.push(`(${col} >= ${sorted[i]} AND ${col} <= ${sorted[j]})`);
    else singles.push(sorted[i]);
    i = j + 1;
  }
  const out: string[] = [];
  for (let i = 0; i < ranges.length; i += 64) out.push(ranges.slice(i, i + 64).join(" OR "));
  for (let i = 0; i < singles.length; i += 5000) out.push(`${col} IN (${singles.slice(i, i + 5000).join(",")})`);
  return out;
}
