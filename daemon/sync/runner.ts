import { randomUUID } from "node:crypto";
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import type { SyncConfig, SyncJob } from "../../src/api/sync.js";
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import type { ResourceService } from "../resources/service.js";
import type { Bucket } from "../store/bucket.js";
import { CLOUD_PROVIDERS } from "./cloud/connect.js";
import { syncCloud } from "./cloud/sync.js";
import type { CloudApi } from "./cloud/types.js";
import { SyncFilter } from "./filter.js";
import { syncFolder, walkFolder } from "./folder.js";
import { syncObjectStore } from "./object-store.js";
import { type LocalFile, ownedResources } from "./resources.js";
import { checkFolderRoot, insideRoot, type SyncSettings } from "./roots.js";
import { emptyStats, type RunContext } from "./run-context.js";
import { syncSitemap } from "./sitemap.js";
import type { SyncRecords } from "./store.js";
import { FolderWatcher } from "./watcher.js";

/** A sync log level as the daemon log's. */
const DAEMON_LEVEL = {
  DEBUG: "debug",
  INFO: "info",
  WARNING: "warn",
  ERROR: "error",
  EXCEPTION: "error",
  CRITICAL: "error",
} as const;

type StoredJob = SyncJob & { seq: number };
/** Config ids are unique within a knowledge box only (a restored box keeps its configs' ids). */
const key = (kbid: string, configId: string) => `${kbid}/${configId}`;
const SCHEDULE_TICK_MS = 30_000;
/**
 * Deletions seen by the watcher wait this long for the matching add of a rename: a renamed folder's
 * files are reported as the watcher walks its new name, possibly over several batches.
 */
const MOVE_GRACE_MS = 2000;

/** Runs sync jobs (one at a time per config), keeps folder watchers, and fires periodic syncs. */
export class SyncRunner {
  private seq = 0;
  private readonly loops = new Map<string, Promise<void>>();
  private readonly aborts = new Map<string, AbortController>();
  private readonly watchers = new Map<string, { kbid: string; watcher: FolderWatcher }>();
  private readonly deferred = new Map<string, Set<string>>();
  private readonly jobPaths = new Map<string, Set<string>>();
  /**
   * The paths of a config's watch job not yet started: later batches join it rather than queueing
   * jobs of their own, so a burst of changes makes a few larger jobs while one runs.
   */
  private readonly watchPending = new Map<string, Set<string>>();
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly records: SyncRecords,
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    private readonly settings: SyncSettings,
    private readonly log: Log,
    /** The bucket an object-store configuration syncs (its connection's credentials unsealed). */
    private readonly bucketOf: (config: SyncConfig) => Promise<Bucket>,
    /** The provider API a cloud configuration syncs through (its connection's tokens unsealed). */
    private readonly cloudOf: (config: SyncConfig) => Promise<CloudApi>,
  ) {}

  /** At daemon start: fail jobs a previous run left running, reconcile every config, start watchers. */
  async start(): Promise<void> {
    for (const kb of this.kbs.list()) await this.startKb(kb.uuid);
    this.timer = setInterval(() => void this.tick(), SCHEDULE_TICK_MS);
    this.timer.unref();
  }

  /** Take up one knowledge box's configs (at start, or when a box is restored or imported). */
  async startKb(kbid: string): Promise<void> {
    const { t } = await this.records.of(kbid);
    for (const j of t.jobs.values()) {
      this.seq = Math.max(this.seq, j.seq);
      if (j.status === "running" || (j.status === "pending" && j.trigger === "watch")) {
        await t.jobs.put(j.id, {
          ...j,
          status: "failed",
          finished_at: new Date().toISOString(),
          error: "interrupted: the daemon stopped",
        });
      }
    }
    for (const config of t.configs.values()) {
      // Disabled, or another box's (restored, not yet adopted): not synced.
      if (config.enabled === false || config.kb_id !== kbid) continue;
      const pending = [...t.jobs.values()].some((j) => j.config_id === config.id && j.status === "pending");
      if (!pending) await this.enqueue(kbid, config, { full: false, trigger: "startup" });
      else this.kick(kbid, config.id);
      await this.startWatcher(kbid, config);
    }
  }

  async enqueue(
    kbid: string,
    config: SyncConfig,
    opts: { full: boolean; trigger: SyncJob["trigger"]; paths?: Set<string> },
  ): Promise<SyncJob> {
    const { t } = await this.records.of(kbid);
    const job: StoredJob = {
      id: randomUUID(),
      seq: ++this.seq,
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
      config_id: config.id,
      status: "pending",
      options: { full_sync: opts.full },
      trigger: opts.trigger,
      stats: emptyStats(),
      error: null,
    };
    if (opts.paths) this.jobPaths.set(job.id, opts.paths);
    t.fresh(job.id);
    // The loop may start the job before its record is committed (readers see it at once; the commits keep their order).
    const put = t.jobs.put(job.id, job);
    this.kick(kbid, config.id);
    await put;
    const { seq: _s, ...out } = job;
    return out;
  }

  /** Run the config's pending jobs in order, unless a loop already does. */
  private kick(kbid: string, configId: string): void {
    if (this.closed || this.loops.has(key(kbid, configId))) return;
    const loop = (async () => {
      for (;;) {
        const { t } = await this.records.of(kbid);
        const next = [...t.jobs.values()]
          .filter((j) => j.config_id === configId && j.status === "pending")
          .sort((a, b) => a.seq - b.seq)[0];
        if (!next || this.closed) return;
        await this.run(kbid, next);
      }
    })()
      .catch((e) => this.log.error(`sync loop for ${configId} failed: ${(e as Error).message}`, { kb: kbid, sync: configId }))
      .finally(() => this.loops.delete(key(kbid, configId)));
    this.loops.set(key(kbid, configId), loop);
  }

  private async run(kbid: string, job: StoredJob): Promise<void> {
    const { t } = await this.records.of(kbid);
    const config = t.configs.get(job.config_id);
    const abort = new AbortController();
    this.aborts.set(job.id, abort);
    // From now on this job's paths are fixed: the next watch batch starts a job of its own.
    const k = key(kbid, job.config_id);
    if (this.watchPending.get(k) === this.jobPaths.get(job.id)) this.watchPending.delete(k);
    let cur: StoredJob = { ...job, status: "running", started_at: new Date().toISOString() };
    // Not waited for before the work (readers see it at once; a job left running by a crash is failed at the next start).
    const running = t.jobs.put(job.id, cur).catch(() => undefined);
    const { kb, store } = await this.kbs.open(kbid);
    const ctx: RunContext = {
      kbid,
      config: config!,
      store,
      resources: this.resources,
      stats: cur.stats,
      signal: abort.signal,
      fetch: this.settings.fetch,
      // Every entry of the job's log is also an event of the daemon log, naming the box, config and job.
      log: (level, message, extra) => {
        this.log[DAEMON_LEVEL[level]](`sync ${config?.name ?? job.config_id}: ${message}`, {
          kb: kb.slug,
          sync: job.config_id,
          job: job.id,
          ...extra,
        });
        return t.log(job.id, level, message, extra);
      },
      attempt: async (item, fn) => {
        try {
          await fn();
        } catch (e) {
          cur.stats.failed++;
          await ctx.log("ERROR", `${item}: ${(e as Error).message}`, { item });
        }
      },
      retryLater: (rel) => this.watchers.get(key(kbid, job.config_id))?.watcher.retry(rel),
    };
    try {
      if (!config) throw new Error("the configuration was removed");
      const started = ctx.log("INFO", `${job.trigger} sync started${job.options.full_sync ? " (full)" : ""}`);
      await this.execute(ctx, job);
      await Promise.all([started, running]);
      cur = { ...cur, status: abort.signal.aborted ? "cancelled" : "completed", finished_at: new Date().toISOString() };
      await ctx.log("INFO", `sync finished: ${summary(cur.stats)}`, { stats: cur.stats });
      if (job.trigger !== "watch") await this.records.markRun(kbid, job.config_id, cur.finished_at!);
    } catch (e) {
      const cancelled = abort.signal.aborted || !config;
      cur = {
        ...cur,
        status: cancelled ? "cancelled" : "failed",
        finished_at: new Date().toISOString(),
        error: (e as Error).message,
      };
      await ctx.log(cancelled ? "WARNING" : "ERROR", `sync ${cur.status}: ${(e as Error).message}`).catch(() => undefined);
    } finally {
      await running;
      this.aborts.delete(job.id);
      this.jobPaths.delete(job.id);
      await t.jobs.put(job.id, cur).catch(() => undefined);
    }
  }

  private async execute(ctx: RunContext, job: StoredJob): Promise<void> {
    const provider = ctx.config.external_connection.provider;
    if (provider === "sitemap") return syncSitemap(ctx, { full: job.options.full_sync });
    if (provider === "object_store_assume_role")
      return syncObjectStore(ctx, await this.bucketOf(ctx.config), { full: job.options.full_sync });
    if (CLOUD_PROVIDERS.has(provider)) return syncCloud(ctx, await this.cloudOf(ctx.config), { full: job.options.full_sync });
    if (provider !== "local_folder") {
      throw new Error(
        `provider ${provider} needs the hosted service's connector; kbox keeps this configuration as a record only`,
      );
    }
    if (!existsSync(ctx.config.sync_root_path!)) throw new Error(`sync root ${ctx.config.sync_root_path} does not exist`);
    // Checked again at every run (a restored configuration, a folder moved since): never the data folder.
    const root = checkFolderRoot(ctx.config.sync_root_path, this.settings, { owner: true });
    const filter = new SyncFilter(root, ctx.config);
    const paths = this.jobPaths.get(job.id);
    if (!paths) {
      await syncFolder(ctx, root, walkFolder(root, filter, ctx.signal), { full: job.options.full_sync });
      return;
    }
    const partial = new Set<string>();
    const files: LocalFile[] = [];
    for (const p of paths) {
      if (p.endsWith("/")) {
        for (const rel of ctx.store.origins.owned(ctx.config.id).keys()) if (rel.startsWith(p)) partial.add(rel);
        continue;
      }
      partial.add(p);
      const abs = join(root, p);
      const st = statSafe(abs);
      // Symlinks are never followed, and no path leaves the root (a folder on the way may be a link).
      if (st?.isFile() && insideRoot(abs, root) && filter.includeFile(abs, st.mtimeMs))
        files.push({ rel: p, abs, size: st.size, mtimeMs: st.mtimeMs, blocks: st.blocks });
    }
    // The watcher reported these files once they had been quiet: no second wait for them to settle.
    await syncFolder(ctx, root, files, { full: false, partial, settled: job.trigger === "watch" });
  }

  /**
   * Batches from a folder watcher become small watch jobs. Paths gone (files, and removed folders as
   * `dir/`) wait for a possible rename and make a job of their own once they waited (`waited`): a job
   * that had a renamed folder's old name with only some of the files of its new one would delete the
   * others (their new names come in a later batch), and create them again as new resources. Meanwhile
   * a batch with a moved file's new name finds the old one gone from the folder: a move.
   */
  private onWatchBatch(kbid: string, config: SyncConfig, paths: Set<string>, waited = false): void {
    const deferred = this.deferred.get(key(kbid, config.id)) ?? new Set<string>();
    this.deferred.set(key(kbid, config.id), deferred);
    const root = config.sync_root_path!;
    const batch = new Set([...paths].filter((p) => !p.endsWith("/") && existsSync(join(root, p))));
    const gone = [...paths].filter((p) => !batch.has(p));
    if (waited) {
      for (const p of gone) {
        deferred.delete(p);
        batch.add(p);
      }
    } else {
      const later = gone.filter((p) => !deferred.has(p));
      for (const p of later) deferred.add(p);
      if (later.length) setTimeout(() => this.onWatchBatch(kbid, config, new Set(later), true), MOVE_GRACE_MS).unref();
    }
    if (!batch.size) return;
    const k = key(kbid, config.id);
    const waiting = this.watchPending.get(k);
    if (waiting) {
      for (const p of batch) waiting.add(p); // a watch job not yet started takes them too
      return;
    }
    this.watchPending.set(k, batch);
    this.records
      .of(kbid)
      .then(({ t }) => {
        const latest = t.configs.get(config.id);
        if (latest) return this.enqueue(kbid, latest, { full: false, trigger: "watch", paths: batch });
        this.watchPending.delete(k);
      })
      .catch((e) => {
        if (this.watchPending.get(k) === batch) this.watchPending.delete(k);
        this.log.error(`sync watch batch failed: ${(e as Error).message}`, { kb: kbid, sync: config.id });
      });
  }

  private async startWatcher(kbid: string, config: SyncConfig): Promise<void> {
    await this.stopWatcher(key(kbid, config.id));
    if (this.closed || config.external_connection.provider !== "local_folder" || !config.sync_root_path) return;
    if (!existsSync(config.sync_root_path)) return;
    const watcher = new FolderWatcher(
      config.sync_root_path,
      new SyncFilter(config.sync_root_path, config),
      (paths) => this.onWatchBatch(kbid, config, paths),
      (e) => this.log.warn(`sync watcher: ${e.message} (changes there wait for the next pass)`, { kb: kbid, sync: config.id }),
    );
    this.watchers.set(key(kbid, config.id), { kbid, watcher });
    await watcher
      .start()
      .catch((e) =>
        this.log.error(`cannot watch ${config.sync_root_path}: ${(e as Error).message}`, { kb: kbid, sync: config.id }),
      );
  }

  private async stopWatcher(k: string): Promise<void> {
    const w = this.watchers.get(k);
    this.watchers.delete(k);
    await w?.watcher.close();
  }

  /** Which configs have a live watcher (for status and doctor). */
  watching(): string[] {
    return [...this.watchers.keys()];
  }

  async configChanged(kbid: string, config: SyncConfig, isNew: boolean, enabled = false): Promise<void> {
    if (config.enabled === false) return this.stopWatcher(key(kbid, config.id));
    await this.startWatcher(kbid, config);
    if (isNew || enabled) await this.enqueue(kbid, config, { full: false, trigger: isNew ? "created" : "api" });
  }

  async configRemoved(kbid: string, configId: string, deleteResources: boolean): Promise<void> {
    await this.stopWatcher(key(kbid, configId));
    const { t } = await this.records.of(kbid);
    const now = new Date().toISOString();
    for (const j of t.jobs.values()) {
      if (j.config_id !== configId) continue;
      this.aborts.get(j.id)?.abort();
      // Pending jobs must not run once the config is going: the loop would pick them up next.
      if (j.status === "pending")
        await t.jobs.put(j.id, { ...j, status: "cancelled", finished_at: now, error: "the configuration was removed" });
    }
    await this.loops.get(key(kbid, configId));
    if (!deleteResources) return;
    const { store } = await this.kbs.open(kbid);
    for (const r of ownedResources(store, configId).values())
      await this.resources.delete(kbid, { rid: r.id }).catch(() => undefined);
  }

  async dropKb(kbid: string): Promise<void> {
    for (const [id, w] of this.watchers) if (w.kbid === kbid) await this.stopWatcher(id);
  }

  /** Periodic syncs: configs whose interval has passed since their last run. */
  private async tick(): Promise<void> {
    for (const kb of this.kbs.list()) {
      const { t } = await this.records.of(kb.uuid).catch(() => ({ t: undefined }));
      for (const c of t?.configs.values() ?? []) {
        if (!c.sync_interval_minutes || c.enabled === false) continue;
        const last = c.last_sync_run ? Date.parse(c.last_sync_run) : 0;
        if (Date.now() - last < c.sync_interval_minutes * 60_000 || this.loops.has(key(kb.uuid, c.id))) continue;
        await this.enqueue(kb.uuid, c, { full: false, trigger: "schedule" }).catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const a of this.aborts.values()) a.abort();
    for (const id of [...this.watchers.keys()]) await this.stopWatcher(id);
    await Promise.all(this.loops.values());
  }
}

function statSafe(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

const summary = (s: SyncJob["stats"]) =>
  `${s.added} added, ${s.updated} updated, ${s.moved} moved, ${s.deleted} deleted, ${s.unchanged} unchanged, ${s.failed} failed`;
