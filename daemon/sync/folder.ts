import { lstatSync } from "node:fs";
import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SyncStats } from "../../src/api/sync.js";
import type { SyncFilter } from "./filter.js";
import { eachLimit } from "./pool.js";
import { createFromFile, hashFile, type LocalFile, moveTo, ownedResources, updateFromFile } from "./resources.js";
import type { RunContext } from "./run-context.js";

/** A file changed within this window may still be being written: it must hold still before it is read. */
const SETTLE_MS = 1000;

/**
 * Every synced file under the root, with size and mtime (not yet hashed), as the walk finds them: a
 * folder's entries in name order, so that a pass can start on the first files while it walks on, and
 * holds one folder's listing at a time rather than the whole tree.
 */
export async function* walkFolder(root: string, filter: SyncFilter, signal?: AbortSignal): AsyncGenerator<LocalFile> {
  async function* walk(dir: string): AsyncGenerator<LocalFile> {
    if (signal?.aborted) throw new Error("cancelled");
    let names: { name: string; dir: boolean; file: boolean }[];
    try {
      const handle = await opendir(dir);
      names = [];
      for await (const ent of handle) names.push({ name: ent.name, dir: ent.isDirectory(), file: ent.isFile() });
    } catch {
      return; // vanished or unreadable: the next pass sees it
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of names) {
      const abs = join(dir, ent.name);
      if (ent.dir) {
        if (filter.includeDir(abs)) yield* walk(abs);
      } else if (ent.file) {
        // On the thread: a stat of a listed entry costs a fifth of one through the thread pool.
        const st = lstatOf(abs);
        if (st?.isFile() && filter.includeFile(abs, st.mtimeMs))
          yield { rel: filter.rel(abs), abs, size: st.size, mtimeMs: st.mtimeMs, blocks: st.blocks };
      }
    }
  }
  yield* walk(root);
}

function lstatOf(abs: string) {
  try {
    return lstatSync(abs);
  } catch {
    return undefined; // vanished: the next pass sees it
  }
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

/**
 * Why a file is not copied into the box at all: too large, or sparse (mostly holes: it would be written
 * densely). From the stat the walk (or the watch batch) took: a file swapped for a link or a pipe since
 * is refused when it is read (O_NOFOLLOW, and a regular file only).
 */
function refused(f: LocalFile): string | undefined {
  if (f.size > SYNC_MAX_FILE_BYTES) return `larger than the ${SYNC_MAX_FILE_BYTES / 1024 ** 3} GiB limit of a synced file`;
  if (f.blocks !== undefined && f.size > 1024 ** 2 && f.blocks * 512 < f.size / 8)
    return `a sparse file (${f.size} bytes, ${f.blocks * 512} on disk) is not copied`;
  return undefined;
}

/**
 * A pass keeps a window of files in flight rather than taking them in lock-step chunks: a file starts
 * as soon as another is done, so reading and hashing go on while earlier files wait for their commits,
 * and each table's write queue gathers whatever arrived during its last commit into the next one (the
 * batches grow when commits are slow and shrink when they are quick). The window is bounded in files
 * and in bytes: big files go a few at a time, and a small file's bytes are held only until its blob
 * is written.
 */
const WINDOW_FILES = 1024;
const WINDOW_BYTES = 64 * 2 ** 20;

/** Is a file a resource had still in the folder (a synced file that is gone may have moved)? */
async function stillThere(root: string, rel: string): Promise<boolean> {
  const st = await lstat(join(root, rel)).catch(() => undefined);
  return Boolean(st?.isFile());
}

/**
 * Compare the folder with the resources the config owns and apply the difference, chunk by chunk as
 * the files come (the walk of a large folder and its indexing go on together). A new file with the
 * content of an owned file that is no longer in the folder is that file moved; owned files the pass
 * did not meet (within `partial`, for a watch batch) are deleted at the end.
 */
export async function syncFolder(
  ctx: RunContext,
  root: string,
  files: AsyncIterable<LocalFile> | Iterable<LocalFile>,
  opts: { full: boolean; partial?: Set<string>; settled?: boolean },
): Promise<SyncStats> {
  const stats = ctx.stats;
  // A watch batch looks up its own paths; the owned files outside it are read only for a move.
  const owned = ownedResources(ctx.store, ctx.config.id, opts.partial);
  let everyOwned = opts.partial ? undefined : owned;
  const allOwned = () => {
    everyOwned ??= ownedResources(ctx.store, ctx.config.id);
    return everyOwned;
  };
  // Owned files not met yet (the only set a pass keeps besides the resources: the walk holds no list).
  const unmet = new Set(owned.keys());
  const movedFrom = new Set<string>();
  // Owned files by content, built when a new file first asks (a pass that only updates never needs it).
  let byHash: Map<string, string[]> | undefined;
  const withHash = (hash: string) => {
    if (!byHash) {
      byHash = new Map();
      for (const [rel, r] of allOwned()) {
        const h = r.origin?.sync_metadata?.content_hash;
        if (h) byHash.set(h, [...(byHash.get(h) ?? []), rel]);
      }
    }
    return byHash.get(hash) ?? [];
  };
  /**
   * An owned file with this content that left the folder, not claimed by another move. A watch batch
   * may hear of a folder's new name before its old one is gone from its view: an owned file outside
   * the batch that is no longer on disk is a source too.
   */
  const movedSource = async (hash: string): Promise<string | undefined> => {
    for (const rel of withHash(hash)) {
      if (movedFrom.has(rel) || (!unmet.has(rel) && (!opts.partial || opts.partial.has(rel)))) continue;
      if (await stillThere(root, rel)) continue;
      movedFrom.add(rel);
      return rel;
    }
    return undefined;
  };
  // A file's log entry is not waited for (the file's window slot goes to the next one at once); the
  // pass waits for them all before it ends.
  let lastLog: Promise<unknown> = Promise.resolve();
  const note = (entry: Promise<void>) => {
    lastLog = Promise.all([lastLog, entry.catch(() => undefined)]);
  };
  const one = async (f: LocalFile) => {
    stats.scanned++;
    unmet.delete(f.rel);
    if (!opts.settled && Date.now() - f.mtimeMs < SETTLE_MS && !(await stable(f))) {
      stats.skipped++;
      ctx.retryLater(f.rel);
      return;
    }
    const why = refused(f);
    if (why) {
      stats.skipped++;
      note(ctx.log("WARNING", `skipped ${f.rel}: ${why}`, { path: f.rel }));
      return;
    }
    const res = owned.get(f.rel);
    if (res && !opts.full && unchanged(f, res.origin ?? undefined)) {
      stats.unchanged++;
      return;
    }
    await ctx.attempt(f.rel, async () => {
      f.hash = await hashFile(f);
      if (res) {
        if (res.origin?.sync_metadata?.content_hash === f.hash && !opts.full) {
          stats.unchanged++;
          return;
        }
        await updateFromFile(ctx.resources, ctx.kbid, ctx.config, res.id, f);
        stats.updated++;
        return note(ctx.log("INFO", `updated ${f.rel}`, { rid: res.id, path: f.rel }));
      }
      const from = await movedSource(f.hash);
      if (from) {
        const r = allOwned().get(from)!;
        await moveTo(ctx.resources, ctx.kbid, ctx.config, r, f);
        stats.moved++;
        return note(ctx.log("INFO", `moved ${from} -> ${f.rel}`, { rid: r.id, from, path: f.rel }));
      }
      const rid = await createFromFile(ctx.resources, ctx.kbid, ctx.config, f);
      stats.added++;
      note(ctx.log("INFO", `added ${f.rel}`, { rid, path: f.rel }));
    });
  };
  let inflight = 0;
  let inflightBytes = 0;
  let wake: (() => void) | undefined;
  const done = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for await (const f of files) {
    if (ctx.signal?.aborted) throw new Error("cancelled");
    while (!failure && inflight && (inflight >= WINDOW_FILES || inflightBytes + f.size > WINDOW_BYTES))
      await new Promise<void>((r) => {
        wake = r;
      });
    if (failure) break;
    inflight++;
    inflightBytes += f.size;
    const p: Promise<void> = one(f).then(
      () => undefined,
      (error) => {
        failure ??= { error };
      },
    );
    done.add(p);
    void p.finally(() => {
      done.delete(p);
      inflight--;
      inflightBytes -= f.size;
      wake?.();
      wake = undefined;
    });
  }
  await Promise.all(done);
  if (failure) {
    await lastLog;
    throw failure.error;
  }
  const gone = [...unmet].filter((rel) => !movedFrom.has(rel));
  await eachLimit(
    gone,
    WINDOW_FILES,
    (rel) =>
      ctx.attempt(rel, async () => {
        const r = owned.get(rel)!;
        await ctx.resources.delete(ctx.kbid, { rid: r.id });
        stats.deleted++;
        note(ctx.log("INFO", `deleted ${rel}`, { rid: r.id, path: rel }));
      }),
    ctx.signal,
  );
  await lastLog;
  return stats;
}
