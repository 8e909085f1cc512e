import { statfs } from "node:fs/promises";
import type { Hono } from "hono";
import * as api from "../../../src/api/doctor.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

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
        kbs.push({ uuid: kb.uuid, slug: kb.slug, tables: await store.health() });
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
      meta: await s.store.health(),
      kbs,
      sync: w ? { watching: w } : null,
    };
  });
}
