import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SyncStats } from "../../src/api/sync.js";
import type { SyncFilter } from "./filter.js";
import { eachLimit } from "./pool.js";
import { createFromFile, hashFile, type LocalFile, moveTo, ownedResources, updateFromFile } from "./resources.js";
import type { RunContext } from "./run-context.js";

/** A file changed within this window may still be being written: it must hold still before it is read. */
const SETTLE_MS = 1000;

/** Every synced file under the root, with size and mtime (not yet hashed). */
export async function scanFolder(root: string, filter: SyncFilter, signal?: AbortSignal): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const walk = async (dir: string) => {
    if (signal?.aborted) throw new Error("cancelled");
    let handle: Awaited<ReturnType<typeof opendir>>;
    try {
      handle = await opendir(dir);
    } catch {
      return; // vanished or unreadable: the next pass sees it
    }
    for await (const ent of handle) {
      const abs = join(dir, ent.name);
      if (ent.isDirectory()) {
        if (filter.includeDir(abs)) await walk(abs);
      } else if (ent.isFile()) {
        const st = await stat(abs).catch(() => undefined);
        if (st && filter.includeFile(abs, st.mtimeMs))
          out.push({ rel: filter.rel(abs), abs, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  await walk(root);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

/** A recently modified file is taken once its size and mtime hold still for a moment. */
async function stable(f: LocalFile): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 300));
  const st = await stat(f.abs).catch(() => undefined);
  return Boolean(st && st.size === f.size && st.mtimeMs === f.mtimeMs);
}

function unchanged(f: LocalFile, origin: { modified?: string | null; metadata?: Record<string, string> } | undefined): boolean {
  if (!origin?.modified) return false;
  return Date.parse(origin.modified) === Math.trunc(f.mtimeMs) && origin.metadata?.size === String(f.size);
}

/** The largest file a sync copies into a box (docs/security.md). */
export const SYNC_MAX_FILE_BYTES = 2 * 1024 ** 3;

/** Why a file is not copied into the box at all: too large, or sparse (mostly holes: it would be written densely). */
async function refused(f: LocalFile): Promise<string | undefined> {
  const st = await lstat(f.abs).catch(() => undefined);
  if (!st?.isFile()) return "not a regular file";
  if (st.size > SYNC_MAX_FILE_BYTES) return `larger than the ${SYNC_MAX_FILE_BYTES / 1024 ** 3} GiB limit of a synced file`;
  if (st.size > 1024 ** 2 && st.blocks * 512 < st.size / 8)
    return `a sparse file (${st.size} bytes, ${st.blocks * 512} on disk) is not copied`;
  return undefined;
}

/** Files handled at once: enough for the store to batch their writes into few commits. */
const CONCURRENCY = 16;

/** Compare the folder with the resources the config owns and apply the difference. */
export async function syncFolder(
  ctx: RunContext,
  files: LocalFile[],
  opts: { full: boolean; partial?: Set<string> },
): Promise<SyncStats> {
  const stats = ctx.stats;
  const owned = ownedResources(ctx.store, ctx.config.id);
  const seen = new Set(files.map((f) => f.rel));
  const fresh: LocalFile[] = [];
  await eachLimit(
    files,
    CONCURRENCY,
    async (f) => {
      stats.scanned++;
      if (Date.now() - f.mtimeMs < SETTLE_MS && !(await stable(f))) {
        stats.skipped++;
        ctx.retryLater(f.rel);
        return;
      }
      const why = await refused(f);
      if (why) {
        stats.skipped++;
        await ctx.log("WARNING", `skipped ${f.rel}: ${why}`, { path: f.rel });
        return;
      }
      const res = owned.get(f.rel);
      if (res && !opts.full && unchanged(f, res.origin ?? undefined)) {
        stats.unchanged++;
        return;
      }
      await ctx.attempt(f.rel, async () => {
        f.hash = await hashFile(f.abs);
        if (!res) return fresh.push(f);
        if (res.origin?.sync_metadata?.content_hash === f.hash && !opts.full) {
          stats.unchanged++;
          return;
        }
        await updateFromFile(ctx.resources, ctx.kbid, ctx.config, res.id, f);
        stats.updated++;
        await ctx.log("INFO", `updated ${f.rel}`, { rid: res.id, path: f.rel });
      });
    },
    ctx.signal,
  );
  // Files gone from the folder (within the scanned part): candidates for moves, else deletions.
  const gone = [...owned.entries()].filter(([rel]) => !seen.has(rel) && (!opts.partial || opts.partial.has(rel)));
  const goneByHash = new Map<string, string>();
  for (const [rel, r] of gone)
    if (r.origin?.sync_metadata?.content_hash) goneByHash.set(r.origin.sync_metadata.content_hash, rel);
  // Pair moves before any work starts, so that two new copies cannot claim the same old file.
  fresh.sort((a, b) => a.rel.localeCompare(b.rel));
  const moves = new Map<LocalFile, string>();
  for (const f of fresh) {
    const from = f.hash ? goneByHash.get(f.hash) : undefined;
    if (!from) continue;
    goneByHash.delete(f.hash!);
    moves.set(f, from);
  }
  await eachLimit(
    fresh,
    CONCURRENCY,
    (f) =>
      ctx.attempt(f.rel, async () => {
        const from = moves.get(f);
        if (from) {
          const r = owned.get(from)!;
          await moveTo(ctx.resources, ctx.kbid, ctx.config, r, f);
          stats.moved++;
          return ctx.log("INFO", `moved ${from} -> ${f.rel}`, { rid: r.id, from, path: f.rel });
        }
        const rid = await createFromFile(ctx.resources, ctx.kbid, ctx.config, f);
        stats.added++;
        await ctx.log("INFO", `added ${f.rel}`, { rid, path: f.rel });
      }),
    ctx.signal,
  );
  const movedFrom = new Set(moves.values());
  await eachLimit(
    gone.filter(([rel]) => !movedFrom.has(rel)),
    CONCURRENCY,
    ([rel, r]) =>
      ctx.attempt(rel, async () => {
        await ctx.resources.delete(ctx.kbid, { rid: r.id });
        stats.deleted++;
        await ctx.log("INFO", `deleted ${rel}`, { rid: r.id, path: rel });
      }),
    ctx.signal,
  );
  return stats;
}
