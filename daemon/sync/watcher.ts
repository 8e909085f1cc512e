import { type FSWatcher, watch } from "chokidar";
import type { SyncFilter } from "./filter.js";

/** How long a burst of changes may keep arriving before it is applied. */
const DEBOUNCE_MS = 250;

/**
 * Watches a sync root and reports debounced batches of changed relative paths. Files are reported
 * only once their size is stable (chokidar's awaitWriteFinish), so half-written files wait.
 */
export class FolderWatcher {
  private watcher?: FSWatcher;
  private pending = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly root: string,
    private readonly filter: SyncFilter,
    private readonly onBatch: (paths: Set<string>) => void,
  ) {}

  async start(): Promise<void> {
    this.watcher = watch(this.root, {
      ignoreInitial: true,
      // A link in the folder is never followed out of it (the initial scan skips links too).
      followSymlinks: false,
      awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 50 },
      ignored: (path: string, stats?: { isDirectory(): boolean; mtimeMs: number }) => {
        if (path === this.root) return false;
        if (!stats) return false;
        return stats.isDirectory() ? !this.filter.includeDir(path) : !this.filter.includeFile(path, stats.mtimeMs);
      },
    });
    this.watcher.on("all", (event, path) => {
      if (event === "addDir") return;
      const rel = this.filter.rel(path);
      if (rel.endsWith(".gitignore") || rel.endsWith(".kboxignore")) this.filter.reset();
      // A removed folder stands for everything under it.
      this.pending.add(event === "unlinkDir" ? `${rel}/` : rel);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
    });
    await new Promise<void>((resolve) => this.watcher?.once("ready", () => resolve()));
  }

  /** Re-report paths later (a file still being written). */
  retry(rel: string): void {
    this.pending.add(rel);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 1000);
  }

  private flush(): void {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Set();
    this.onBatch(batch);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
  }
}
