import { mkdirSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";

export type Connection = lancedb.Connection;
export type Table = lancedb.Table;

const MB = 1024n * 1024n;
const cacheMb = (name: string, fallback: number) => BigInt(Number(process.env[name]) || fallback) * MB;
let session: lancedb.Session | undefined;

/**
 * One LanceDB session (its index and metadata caches) for every knowledge box of the daemon. By
 * default each connection would get its own caches of up to 6 GB of index data and 1 GB of file
 * metadata, which a long ingestion fills with the manifests of thousands of versions.
 */
function sharedSession(): lancedb.Session {
  session ??= new lancedb.Session(cacheMb("KBOX_INDEX_CACHE_MB", 512), cacheMb("KBOX_METADATA_CACHE_MB", 64));
  return session;
}

/** Bytes held by LanceDB's index and metadata caches (daemon status). */
export function cacheBytes(): number {
  return Number(session?.sizeBytes() ?? 0);
}

/**
 * LanceDB's full-text index builder holds up to LANCE_FTS_PARTITION_SIZE MiB of posting lists per
 * worker before it writes a partition (2048 by default), and an update loads the index's existing
 * partitions into that budget: on a big knowledge box each catch-up briefly took hundreds of MB.
 * kbox defaults it lower (more, smaller partitions); set the variable to override.
 */
const FTS_PARTITION_MB = "256";

/** Open (creating) a LanceDB database folder. */
export async function openDb(dir: string): Promise<Connection> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Read by LanceDB when it first builds a full-text index, so set before any table is opened.
  process.env.LANCE_FTS_PARTITION_SIZE ??= FTS_PARTITION_MB;
  // The session goes in the options: connect()'s third argument is not used for a local path.
  return lancedb.connect(dir, { session: sharedSession() } as Partial<lancedb.ConnectionOptions>);
}

/** Open a table, creating it empty with `schema` when missing. */
export async function openOrCreate(db: Connection, name: string, schema: Schema): Promise<Table> {
  const names = await db.tableNames();
  if (names.includes(name)) return db.openTable(name);
  return db.createEmptyTable(name, schema, { mode: "create", existOk: true });
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
