import { type FSWatcher, watch } from "node:fs";
import { lstat, opendir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { SyncFilter } from "./filter.js";

/**
 * How long a file must have gone without a write before it is taken: a file still being written waits
 * (a writer pausing longer than this between two writes gets its file read twice: the second read is
 * an update). Larger files, which take longer to copy, wait longer.
 */
export function quietMs(size: number): number {
  if (size < 2 ** 20) return 200;
  return size < 64 * 2 ** 20 ? 300 : 1000;
}

/** Files that became ready together are reported together after this short gathering window. */
const GATHER_MS = 5;

/**
 * Watches a sync root and reports batches of changed relative paths (a removed folder as `dir/`).
 * It watches folders, not files (one inotify watch per synced folder, none per file, and no list of
 * the files: the sync pass walks the folder, the watcher only hears of changes). Every event of a
 * path restarts its quiet window; once it ends, the path is looked at once: a file that was not
 * written for `quietMs` is reported, so half-written files wait; a new folder is watched and its files
 * reported; a path gone is reported as deleted.
 */
export class FolderWatcher {
  private readonly dirs = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private pending = new Set<string>();
  private flushTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly filter: SyncFilter,
    private readonly onBatch: (paths: Set<string>) => void,
    private readonly onError?: (e: Error) => void,
  ) {}

  /** Watch the root and every synced folder under it (a walk of the folders only). */
  async start(): Promise<void> {
    await this.watchTree(this.root, false);
  }

  /** Folders being watched (for status and tests). */
  get watched(): number {
    return this.dirs.size;
  }

  /** Look at a path again once it has been quiet (a file still being written when a pass met it). */
  retry(rel: string): void {
    this.arm(join(this.root, rel), 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.flushTimer);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }

  /**
   * Watch `dir` and the synced folders under it; with `report`, its files are reported (a folder that
   * arrived, or `again`: one whose events the kernel dropped). A folder that cannot be watched (the
   * inotify limit) is told to `onError` and left to the passes; the root's failure is thrown.
   */
  private async watchTree(dir: string, report: boolean, again = false): Promise<void> {
    if (this.closed || (this.dirs.has(dir) && !again)) return;
    if (!this.dirs.has(dir)) {
      try {
        this.watchDir(dir);
      } catch (e) {
        if (dir === this.root) throw e;
        this.onError?.(new Error(`cannot watch ${dir}: ${(e as Error).message}`));
        return;
      }
    }
    try {
      for await (const ent of await opendir(dir)) {
        const abs = join(dir, ent.name);
        if (ent.isDirectory()) {
          if (this.filter.includeDir(abs)) await this.watchTree(abs, report);
        } else if (report) this.arm(abs, 0);
      }
    } catch {
      // Gone again: its parent's event says so.
    }
  }

  private watchDir(dir: string): void {
    const w = watch(dir, { persistent: false }, (_event, name) => {
      if (this.closed || this.dirs.get(dir) !== w) return;
      // No name: the kernel dropped events; look at the whole folder again.
      if (!name) return void this.watchTree(dir, true, true).catch(() => undefined);
      this.arm(join(dir, name.toString()), undefined);
    });
    // A folder removed or unreadable: its parent's event reports it (and then forgets it here).
    w.on("error", () => w.close());
    this.dirs.set(dir, w);
  }

  /** Stop watching `dir` and everything under it. */
  private unwatch(dir: string): void {
    for (const [d, w] of this.dirs) {
      if (d === dir || d.startsWith(`${dir}/`)) {
        w.close();
        this.dirs.delete(d);
      }
    }
  }

  /** (Re)start the quiet window of a path; `wait` overrides the window (0: look now, it was written long ago). */
  private arm(abs: string, wait: number | undefined): void {
    const name = basename(abs);
    if (name === ".gitignore" || name === ".kboxignore") this.filter.reset();
    clearTimeout(this.timers.get(abs));
    this.timers.set(
      abs,
      setTimeout(() => void this.look(abs).catch(() => undefined), wait ?? quietMs(0)),
    );
  }

  /** A path's quiet window ended: report it (a file held still, a deletion) or watch it (a new folder). */
  private async look(abs: string): Promise<void> {
    this.timers.delete(abs);
    if (this.closed) return;
    const st = await lstat(abs).catch(() => undefined);
    if (this.closed || this.timers.has(abs)) return; // written again meanwhile: its new window runs
    const rel = this.filter.rel(abs);
    if (st?.isDirectory()) {
      if (!this.dirs.has(abs) && this.filter.includeDir(abs)) await this.watchTree(abs, true);
      return;
    }
    if (!st) {
      if (this.dirs.has(abs)) {
        this.unwatch(abs);
        this.report(`${rel}/`); // a removed folder stands for everything under it
      } else if (basename(abs) !== basename(dirname(abs)) && this.filter.mayInclude(abs)) this.report(rel);
      // (An event of a folder itself, removed or moved, carries the folder's own name: its parent reports it.)
      return;
    }
    if (st.isFile()) {
      if (!this.filter.includeFile(abs, st.mtimeMs)) return;
      // Written within its window (an event of another path, or one the kernel merged): wait the rest.
      const left = quietMs(st.size) - (Date.now() - st.mtimeMs);
      if (left > 0) {
        this.timers.set(
          abs,
          setTimeout(() => void this.look(abs).catch(() => undefined), left),
        );
        return;
      }
    }
    // A file, or what replaced one (a link, a pipe): the pass decides what it means for the resource.
    if (this.filter.mayInclude(abs)) this.report(rel);
  }

  private report(rel: string): void {
    this.pending.add(rel);
    this.flushTimer ??= setTimeout(() => this.flush(), GATHER_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (!this.pending.size || this.closed) return;
    const batch = this.pending;
    this.pending = new Set();
    this.onBatch(batch);
  }
}
