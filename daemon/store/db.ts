import { mkdirSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";

export type Connection = lancedb.Connection;
export type Table = lancedb.Table;

/** Open (creating) a LanceDB database folder. */
export async function openDb(dir: string): Promise<Connection> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return lancedb.connect(dir);
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
