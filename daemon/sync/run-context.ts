import type { LogLevel, SyncConfig, SyncStats } from "../../src/api/sync.js";
import type { FetchPolicy } from "../net/outbound.js";
import type { ResourceService } from "../resources/service.js";
import type { KbStore } from "../store/index.js";

/** What one sync pass works with: the config, the stores, its stats and its log. */
export interface RunContext {
  kbid: string;
  config: SyncConfig;
  store: KbStore;
  resources: ResourceService;
  stats: SyncStats;
  signal?: AbortSignal;
  /** What a sitemap sync may fetch. */
  fetch: FetchPolicy;
  log: (level: LogLevel, message: string, extra?: Record<string, unknown>) => Promise<void>;
  /** Run one item's work; a failure is logged and counted, and the pass goes on. */
  attempt: (item: string, fn: () => Promise<unknown>) => Promise<void>;
  /** An item that was not ready (still being written); the watcher retries it. */
  retryLater: (item: string) => void;
}

export const emptyStats = (): SyncStats => ({
  scanned: 0,
  added: 0,
  updated: 0,
  moved: 0,
  deleted: 0,
  unchanged: 0,
  skipped: 0,
  failed: 0,
});
