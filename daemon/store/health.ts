import type { Connection } from "./db.js";
import { countRecords } from "./doc-table.js";

/** One table as doctor sees it: opened, counted and read, or the error that stopped it. */
export interface TableHealth {
  name: string;
  ok: boolean;
  rows: number | null;
  error: string | null;
}

/** Open, count (records: see countRecords) and read one row of every table of a database; a broken table reports its error. */
export async function checkTables(db: Connection): Promise<TableHealth[]> {
  const out: TableHealth[] = [];
  for (const name of await db.tableNames()) {
    try {
      const t = await db.openTable(name);
      const rows = await countRecords(t);
      // Reading a row touches the data files, not only the manifest.
      await t.query().limit(1).toArray();
      out.push({ name, ok: true, rows, error: null });
    } catch (e) {
      out.push({ name, ok: false, rows: null, error: (e as Error).message });
    }
  }
  return out;
}

const connections = new WeakMap<object, Connection>();

/** The store's own modules (snapshots) reach a knowledge box's database through this, never callers outside daemon/store. */
export function connectionOf(owner: object): Connection {
  const c = connections.get(owner);
  if (!c) throw new Error("no database for this store");
  return c;
}

export function registerConnection(owner: object, db: Connection): void {
  connections.set(owner, db);
}
