import { statfs } from "node:fs/promises";
import type { Hono } from "hono";
import * as api from "../../../src/api/doctor.js";
import type { Services } from "../../services.js";
import type { Connection } from "../../store/db.js";
import { countRecords } from "../../store/doc-table.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Open, count (records: see countRecords) and read one row of every table of a database; a broken table reports its error. */
async function checkTables(db: Connection): Promise<api.TableHealth[]> {
  const out: api.TableHealth[] = [];
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

async function space(dir: string): Promise<{ free: number | null; total: number | null }> {
  try {
    const s = await statfs(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return { free: null, total: null };
  }
}

/** The sync runner's live watchers, when the sync feature is wired into the services. */
function watching(s: Services): string[] | undefined {
  const sync = (s as unknown as { sync?: { runner?: { watching?: () => string[] } } }).sync;
  return sync?.runner?.watching?.();
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.doctor, async () => {
    const kbs: api.DoctorReport["kbs"] = [];
    for (const kb of s.kbs.list()) {
      try {
        const store = await s.store.kb(kb.uuid);
        kbs.push({ uuid: kb.uuid, slug: kb.slug, tables: await checkTables(store.db) });
      } catch (e) {
        kbs.push({
          uuid: kb.uuid,
          slug: kb.slug,
          tables: [{ name: "(open)", ok: false, rows: null, error: (e as Error).message }],
        });
      }
    }
    const { free, total } = await space(s.info.dataDir);
    const w = watching(s);
    return {
      data_dir: s.info.dataDir,
      free_bytes: free,
      total_bytes: total,
      meta: await checkTables(s.store.meta),
      kbs,
      sync: w ? { watching: w } : null,
    };
  });
}
