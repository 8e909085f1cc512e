import { exhausted } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { type Log, silentLog } from "../lifecycle/logger.js";
import type { ProcessingSink } from "../resources/service.js";
import type { KbDoc, KbStore } from "../store/index.js";
import type { VectorsetEmbedder } from "./embed.js";
import { ExtractPool } from "./extract-pool.js";
import { FieldThreads } from "./field-threads.js";
import { type Extract, inProcessExtract } from "./in-process.js";
import { type BatchItem, type BatchResult, processBatch, type RunStats } from "./process-resource.js";
import { markFailed, sweepOrphans } from "./recovery.js";
import type { IngestSettings } from "./retry.js";
import { RetryTimers } from "./retry-timers.js";

/** Where the queue gets a knowledge box's embedders (the model service). */
export interface EmbedderSource {
  embeddersFor(kb: KbDoc | string): Promise<VectorsetEmbedder[]>;
}

export interface QueueOptions {
  /** Waiting resources above which `enqueue` waits (back-pressure on writers). */
  highWater?: number;
  log?: Log;
}

/** What one run of the queue did to a resource, for listeners (activity log, tasks on NEW resources, webhooks). */
export interface ProcessedEvent {
  kbid: string;
  rid: string;
  /** The status each processed field has now ("DELETED" when the field went away meanwhile). */
  fields: Record<string, string>;
  paragraphs: number;
  embedded: number;
  ms: number;
}

export type ProcessedListener = (event: ProcessedEvent) => void | Promise<void>;

interface Item {
  kbid: string;
  rid: string;
  fields: Set<string>;
}

const MAX_ATTEMPTS = 3;
/** The longest wait between two attempts of a resource whose run found the disk full (see `failed`). */
const MAX_WAIT_FOR_ROOM_MS = 30_000;
/** Paragraphs a batch aims to hold at most (its resources' rows wait in memory for the batch's commits). */
const BATCH_PARAGRAPHS = 20_000;

/** A box whose learning configuration says `ner_model: none` (or off, disabled) gets no entity extraction. */
const nerOff = (kb: KbDoc) => {
  const m = (kb.learning_configuration as { ner_model?: unknown } | null)?.ner_model;
  return typeof m === "string" && /^(none|off|disabled)$/i.test(m.trim());
};

const keyOf = (kbid: string, rid: string) => `${kbid}/${rid}`;

/**
 * The durable processing queue. Its state is derived from stored records: a field whose status is
 * PENDING is work, so an acknowledged change survives kill -9 and is resumed by the start-up scan.
 * In memory it only orders work: one run per resource at a time, `concurrency` resources at once.
 */
export class ProcessingQueue implements ProcessingSink {
  private readonly waiting = new Map<string, Item>();
  private readonly running = new Map<string, Item>();
  /** The stores whose maintenance waits while this queue has work for them. */
  private readonly held = new WeakSet<KbStore>();
  private readonly attempts = new Map<string, number>();
  /** Runs of a resource in a row that found the disk full (the wait before the next grows with it). */
  private readonly roomWaits = new Map<string, number>();
  private readonly abort = new AbortController();
  private readonly touched = new Set<string>();
  /** Fields being written right now (before their enqueue): results computed from older values are dropped. */
  private readonly dirty = new Map<string, Set<string>>();
  private idleWaiters: (() => void)[] = [];
  private spaceWaiters: (() => void)[] = [];
  private reconcileTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private pumpScheduled = false;
  readonly concurrency: number;
  readonly highWater: number;
  private readonly pool: ExtractPool;
  /** Threads for the CPU of small plain fields and the finishing of the others (field-threads.ts). */
  private readonly threads: FieldThreads;
  /** Small plain files and titles here, the rest in the worker pool. */
  private readonly extract: Extract;
  private readonly log: Log;
  /** Fields failing transiently, waiting for their next attempt (rebuilt from the records at start). */
  private readonly retries = new RetryTimers();
  private readonly processedListeners: ProcessedListener[] = [];
  /** Batches running (at most two), and the paragraphs per resource of the recent ones (sizes the next). */
  private batches = 0;
  private paragraphsPerResource = 1;
  /** Totals since start, for status and benchmarks. */
  readonly totals: RunStats = { fields: 0, paragraphs: 0, embedded: 0, errors: 0 };

  constructor(
    private readonly kbs: KbService,
    private readonly models: EmbedderSource | undefined,
    private readonly settings: IngestSettings,
    opts: QueueOptions = {},
  ) {
    this.concurrency = settings.concurrency;
    this.pool = new ExtractPool({ size: settings.extractWorkers });
    this.threads = new FieldThreads(settings.fieldThreads);
    this.extract = inProcessExtract(
      async (doc, blobs, signal, opts) => {
        // A worker reads a path: a packed blob, or data on object storage, gets a local copy (the blob store's cache).
        if (doc.blob) await blobs.ensureLocal?.(doc.blob);
        const { bytes: _read, entities, ...rest } = opts ?? {};
        // What the worker process prepared is finished (languages, entities) on a field thread.
        return this.pool.run(doc, blobs, signal, { ...rest, fetchPolicy: this.settings.fetch, ocr: this.settings.ocr }, (p) =>
          this.threads.analyse(doc, { entities }, p),
        );
      },
      (doc, opts) => this.threads.analyse(doc, opts),
    );
    this.highWater = opts.highWater ?? 10_000;
    this.log = opts.log ?? silentLog;
    kbs.onDrop((kbid) => this.dropKb(kbid));
    // A restored or imported box may hold PENDING work from the moment it was backed up.
    kbs.onArrive(
      (kbid) => void this.scanKb(kbid).catch((e) => this.log.error(`ingest: cannot scan ${kbid}: ${(e as Error).message}`)),
    );
  }

  /**
   * Be told after each run of a resource, once its records are written. Listeners run after the queue has moved on:
   * they never delay ingestion, and their failures are logged, never retried by the queue.
   */
  onProcessed(listener: ProcessedListener): void {
    this.processedListeners.push(listener);
  }

  /** Scan every knowledge box for PENDING work; call once at start. */
  async start(): Promise<void> {
    for (const kb of this.kbs.list()) {
      try {
        const n = await this.scanKb(kb.uuid);
        if (n) this.log(`ingest: resuming ${n} resource(s) of ${kb.slug}`);
      } catch (e) {
        this.log.error(`ingest: cannot scan ${kb.slug}: ${(e as Error).message}`);
      }
    }
    void this.sweepOrphans().catch((e) => this.log.error(`ingest: orphan sweep failed: ${(e as Error).message}`));
  }

  /** Delete the paragraphs of resources that are gone (see sweepOrphans). */
  sweepOrphans(): Promise<number> {
    return sweepOrphans(this.kbs, () => this.stopping, this.log);
  }

  async enqueue(kbid: string, rid: string, fieldKeys: string[]): Promise<void> {
    if (this.stopping) return; // the records say PENDING: the next start picks it up
    await this.kbs.open(kbid); // a box that does not exist (any more) gets no work
    this.add(kbid, rid, fieldKeys);
    while (this.waiting.size > this.highWater && !this.stopping) await new Promise<void>((r) => this.spaceWaiters.push(r));
  }

  async forget(kbid: string, rid: string, fieldKeys?: string[]): Promise<void> {
    const item = this.waiting.get(keyOf(kbid, rid));
    if (item && fieldKeys) for (const k of fieldKeys) item.fields.delete(k);
    else if (item) this.waiting.delete(keyOf(kbid, rid));
    this.retries.cancel(kbid, rid, fieldKeys);
  }

  touch(kbid: string, rid: string, fieldKeys: string[]): void {
    const k = keyOf(kbid, rid);
    if (!this.running.has(k)) return; // only a run in flight can hold an older value
    const set = this.dirty.get(k) ?? new Set();
    for (const f of fieldKeys) set.add(f);
    this.dirty.set(k, set);
  }

  /** "queued", "running", "retrying" (waiting for the next attempt after a transient failure) or undefined. */
  state(kbid: string, rid: string): "queued" | "running" | "retrying" | undefined {
    const k = keyOf(kbid, rid);
    if (this.running.has(k)) return "running";
    if (this.waiting.has(k)) return "queued";
    return this.retries.has(kbid, rid) ? "retrying" : undefined;
  }

  /** Resources and fields waiting and running, for one knowledge box or all. */
  counts(kbid?: string): {
    queued: number;
    running: number;
    queued_fields: number;
    running_fields: number;
    retrying: number;
    retrying_fields: number;
  } {
    const pick = (m: Map<string, Item>) => [...m.values()].filter((i) => !kbid || i.kbid === kbid);
    const w = pick(this.waiting);
    const r = pick(this.running);
    const fields = (items: Item[]) => items.reduce((n, i) => n + i.fields.size, 0);
    const t = this.retries.counts(kbid);
    return {
      queued: w.length,
      running: r.length,
      queued_fields: fields(w),
      running_fields: fields(r),
      retrying: t.resources,
      retrying_fields: t.fields,
    };
  }

  /** The extraction workers and their memory (daemon status). */
  workers(): { workers: number; rss_bytes: number } {
    return this.pool.memory();
  }

  /** Fields analysed on the field threads and on the daemon's thread (tests, benchmarks). */
  fieldAnalyses(): { threads: number; here: number } {
    return { ...this.threads.done };
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (!this.waiting.size && !this.running.size) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Stop taking work, abort what runs (it stays PENDING in the records) and wait for it to let go. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.reconcileTimer);
    this.retries.clear();
    this.abort.abort();
    for (const r of this.spaceWaiters.splice(0)) r();
    const deadline = Date.now() + 30_000;
    while (this.running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await this.pool.close();
    await this.threads.close();
  }

  private add(kbid: string, rid: string, fieldKeys: Iterable<string>): void {
    const k = keyOf(kbid, rid);
    let item = this.waiting.get(k);
    if (!item) {
      item = { kbid, rid, fields: new Set() };
      this.waiting.set(k, item);
    }
    for (const f of fieldKeys) item.fields.add(f);
    this.retries.cancel(kbid, rid, item.fields); // run now: a scheduled retry of these fields is moot
    this.touched.add(kbid);
    this.schedulePump();
  }

  /**
   * Start batches on the next turn of the event loop, not at the first enqueue: a burst of enqueues
   * (a sync chunk, a batch of creates) then forms full batches instead of a first batch of one
   * resource that holds a batch slot through its commits.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Queue every resource of a KB with PENDING fields (or a PENDING aggregate) not already queued. */
  private async scanKb(kbid: string): Promise<number> {
    const { store } = await this.kbs.open(kbid);
    let n = 0;
    for (const res of store.resources.values()) {
      const k = keyOf(kbid, res.id);
      const busy = this.running.get(k);
      const queued = (key: string) => Boolean(busy?.fields.has(key) || this.waiting.get(k)?.fields.has(key));
      // Fields failing transiently wait for their next attempt; the others go now.
      const later = this.retries.fromRecord(kbid, res, queued, (f) => this.retryField(kbid, res.id, f));
      const pending = Object.entries(res.fields)
        .filter(([key, f]) => f.status === "PENDING" && !queued(key) && !later.includes(key))
        .map(([key]) => key);
      const settle = !pending.length && !later.length && res.metadata.status === "PENDING" && !busy && !this.waiting.has(k);
      if (pending.length || settle) {
        this.add(kbid, res.id, pending);
        n++;
      }
    }
    return n;
  }

  /**
   * Start batches while there is room: a batch is up to half the concurrency of waiting resources of
   * one knowledge box (two batches overlap: one extracts while the other commits), fewer when the
   * last ones were large, so that a batch holds about BATCH_PARAGRAPHS paragraphs in memory.
   */
  private pump(): void {
    if (this.stopping) return;
    while (this.running.size < this.concurrency && this.batches < 2) {
      const room = Math.min(this.concurrency - this.running.size, Math.max(1, Math.ceil(this.concurrency / 2)));
      const size = Math.max(1, Math.min(room, Math.floor(BATCH_PARAGRAPHS / Math.max(1, this.paragraphsPerResource))));
      const batch: [string, Item][] = [];
      for (const [k, item] of this.waiting) {
        if (batch.length >= size) break;
        if (this.running.has(k)) continue; // one run per resource: the next one waits for it
        if (batch.length && item.kbid !== batch[0][1].kbid) continue;
        batch.push([k, item]);
      }
      if (!batch.length) break;
      for (const [k, item] of batch) {
        this.waiting.delete(k);
        this.running.set(k, item);
      }
      this.batches++;
      void this.runBatch(batch);
    }
    if (this.waiting.size <= this.highWater) for (const r of this.spaceWaiters.splice(0)) r();
  }

  private async runBatch(batch: [string, Item][]): Promise<void> {
    let results: BatchResult[] | undefined;
    let error: unknown;
    try {
      results = await this.process(batch.map(([, item]) => item));
    } catch (e) {
      error = e;
    }
    let paragraphs = 0;
    for (const [n, [k, item]] of batch.entries()) {
      const r = results?.[n];
      try {
        if (r && "stats" in r) {
          for (const [name, v] of Object.entries(r.stats)) this.totals[name as keyof RunStats] += v;
          paragraphs += r.stats.paragraphs;
          this.forgetFailures(k);
        } else if (results || error) {
          if (!this.stopping) await this.failed(k, item, r ? r.error : error);
        } else this.forgetFailures(k); // the knowledge box is gone
      } catch (e) {
        this.log.error(`ingest: ${item.rid}: ${(e as Error).message}`, { kb: item.kbid, rid: item.rid });
      } finally {
        this.running.delete(k);
        // Touched fields were enqueued again by their writer (or the sweep finds them PENDING).
        this.dirty.delete(k);
      }
    }
    if (results) this.paragraphsPerResource = 0.7 * this.paragraphsPerResource + (0.3 * paragraphs) / batch.length;
    this.batches--;
    this.pump();
    if (!this.waiting.size && !this.running.size) this.onIdle();
  }

  /** Process a batch of resources of one knowledge box; undefined when the box is gone. */
  private async process(items: Item[]): Promise<BatchResult[] | undefined> {
    let kb: KbDoc;
    let store: KbStore;
    try {
      ({ kb, store } = await this.kbs.open(items[0].kbid));
    } catch {
      return undefined; // the knowledge box is gone
    }
    if (!this.held.has(store)) {
      // The box's paragraph table keeps its compaction for the end of the run (see holdMaintenanceWhile).
      this.held.add(store);
      const kbid = store.kbid;
      store.paragraphs.holdMaintenanceWhile(() => !this.stopping && this.hasWork(kbid));
    }
    let embedders: Promise<VectorsetEmbedder[]> | undefined;
    const shared = {
      store,
      embedders: () => {
        embedders ??= this.models ? this.models.embeddersFor(kb) : Promise.resolve([]);
        return embedders;
      },
      extract: this.extract,
      signal: this.abort.signal,
      retry: this.settings.retry,
      entities: this.settings.entities && !nerOff(kb),
    };
    const batch: BatchItem[] = items.map((item) => {
      const k = keyOf(item.kbid, item.rid);
      const superseded = (key: string) => Boolean(this.waiting.get(k)?.fields.has(key) || this.dirty.get(k)?.has(key));
      return { ctx: { ...shared, superseded }, rid: item.rid, fields: [...item.fields] };
    });
    const t0 = performance.now();
    const results = await processBatch(batch);
    const ms = Math.round(performance.now() - t0);
    items.forEach((item, n) => {
      const r = results[n];
      if ("stats" in r) this.afterRun(item, kb, store, r.stats, ms);
    });
    return results;
  }

  /** A run of the resource went through (or its box is gone): its failures in a row start again from none. */
  private forgetFailures(k: string): void {
    this.attempts.delete(k);
    this.roomWaits.delete(k);
  }

  /** Is any resource of the box waiting or running? */
  private hasWork(kbid: string): boolean {
    for (const i of this.running.values()) if (i.kbid === kbid) return true;
    for (const i of this.waiting.values()) if (i.kbid === kbid) return true;
    return false;
  }

  /** An unexpected failure (storage, a bug): retry a few times, then record ERROR so nothing stays PENDING forever. */
  private async failed(k: string, item: Item, err: unknown): Promise<void> {
    const out = exhausted(err);
    if (out) {
      const n = (this.roomWaits.get(k) ?? 0) + 1;
      this.roomWaits.set(k, n);
      // The machine ran out of disk or file descriptors: not the document's fault, and nothing was
      // written. The fields stay PENDING and are tried again, less and less often (up to every
      // 30 s), until there is room: they resume on their own once space is freed.
      const wait = Math.min(MAX_WAIT_FOR_ROOM_MS, 1000 * 2 ** Math.min(n - 1, 5));
      if (n === 1 || wait === MAX_WAIT_FOR_ROOM_MS)
        this.log.warn(`ingest: ${item.rid} waits for room (${out.message}); next attempt in ${wait / 1000} s`, {
          kb: item.kbid,
          rid: item.rid,
        });
      const at = Date.now() + wait;
      for (const f of item.fields)
        this.retries.schedule(item.kbid, item.rid, f, at, () => this.retryField(item.kbid, item.rid, f, true));
      return;
    }
    const n = (this.attempts.get(k) ?? 0) + 1;
    this.attempts.set(k, n);
    this.log[n < MAX_ATTEMPTS ? "warn" : "error"](
      `ingest: ${item.rid} failed (attempt ${n}): ${(err as Error)?.stack ?? String(err)}`,
      {
        kb: item.kbid,
        rid: item.rid,
      },
    );
    if (n < MAX_ATTEMPTS) {
      setTimeout(() => !this.stopping && this.add(item.kbid, item.rid, item.fields), 200 * n).unref();
      return;
    }
    this.forgetFailures(k);
    await markFailed(this.kbs, item.kbid, item.rid, item.fields, err);
  }

  /**
   * When the queue drains, re-scan the knowledge boxes it touched: a field can be left PENDING
   * without being queued when a concurrent request wrote back an older copy of its resource record.
   */
  private onIdle(): void {
    for (const r of this.idleWaiters.splice(0)) r();
    if (this.stopping || !this.touched.size) return;
    clearTimeout(this.reconcileTimer);
    this.reconcileTimer = setTimeout(() => {
      const kbids = [...this.touched];
      this.touched.clear();
      for (const kbid of kbids) void this.scanKb(kbid).catch(() => undefined);
    }, 500);
    this.reconcileTimer.unref();
  }

  /** Log what this run did and what failed, and schedule the retries of the fields that failed transiently. */
  private afterRun(item: Item, kb: KbDoc, store: KbStore, stats: RunStats | undefined, ms: number): void {
    const res = store.resources.get(item.rid);
    if (!res || this.stopping) return;
    const k = keyOf(item.kbid, item.rid);
    const later = this.retries.fromRecord(
      item.kbid,
      res,
      (f) => Boolean(this.waiting.get(k)?.fields.has(f)),
      (f) => this.retryField(item.kbid, item.rid, f),
    );
    const title = res.title || res.slug || item.rid;
    const at = { kb: kb.slug, rid: item.rid };
    const statuses = Object.fromEntries([...item.fields].map((key) => [key, res.fields[key]?.status ?? "DELETED"]));
    this.log(`ingest: ${title}: processed`, {
      ...at,
      fields: statuses,
      ...(stats ? { paragraphs: stats.paragraphs, embedded: stats.embedded } : {}),
      ms,
    });
    this.notifyProcessed({
      kbid: item.kbid,
      rid: item.rid,
      fields: statuses,
      paragraphs: stats?.paragraphs ?? 0,
      embedded: stats?.embedded ?? 0,
      ms,
    });
    for (const key of item.fields) {
      const f = res.fields[key];
      if (f && later.includes(key) && f.retry) {
        this.log.warn(
          `ingest: ${title} ${key} failed (attempt ${f.retry.attempts}, failing since ${f.retry.since}): ${f.error?.body}; next attempt ${f.retry.next}`,
          { ...at, field: key },
        );
      } else if (f && (f.status === "EXPIRED" || f.status === "BLOCKED" || f.status === "ERROR"))
        this.log[f.status === "BLOCKED" ? "warn" : "error"](`ingest: ${title} ${key} ${f.status}: ${f.error?.body}`, {
          ...at,
          field: key,
        });
    }
  }

  private notifyProcessed(event: ProcessedEvent): void {
    // Each listener runs in a microtask of its own (after this run's bookkeeping), its failure logged.
    for (const listener of this.processedListeners)
      Promise.resolve()
        .then(() => listener(event))
        .catch((e) => this.log.error(`ingest: a processed listener failed: ${(e as Error).message}`, { rid: event.rid }));
  }

  /**
   * A retry is due: queue the field again if its record still waits for one (`anyPending`: if it is
   * still PENDING, for a wait the record does not hold, such as one for room on the disk).
   */
  private retryField(kbid: string, rid: string, field: string, anyPending = false): void {
    if (this.stopping) return;
    void this.kbs.open(kbid).then(
      ({ store }) => {
        const f = store.resources.get(rid)?.fields[field];
        if (f?.status === "PENDING" && (f.retry || anyPending)) this.add(kbid, rid, [field]);
      },
      () => undefined,
    );
  }

  private dropKb(kbid: string): void {
    this.retries.clear(kbid);
    for (const [k, item] of this.waiting) if (item.kbid === kbid) this.waiting.delete(k);
    this.touched.delete(kbid);
  }
}
