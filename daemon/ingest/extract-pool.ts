import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { FieldDoc } from "../store/index.js";
import type { ExtractJob, ExtractReply } from "./extract-worker.js";
import { ExtractionError } from "./extract/errors.js";
import { type BlobPaths, type FieldOutcome, fieldError, type ProcessOptions } from "./process-field.js";

/** Sizing of the extraction pool. */
export interface ExtractPoolOptions {
  /** Worker threads (default KBOX_EXTRACT_WORKERS, else the core count, at most 4). */
  size?: number;
  /** Heap limit of each worker in MB (default 768): a document that needs more ends as ERROR, the daemon lives on. */
  maxHeapMb?: number;
  /** A worker is replaced after this many jobs, so that parser caches and heap fragmentation never pile up. */
  jobsPerWorker?: number;
}

interface Job {
  msg: ExtractJob;
  resolve: (o: FieldOutcome) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  job?: Job;
  done: number;
  onAbort?: () => void;
}

/** The worker's entry: compiled JavaScript next to this file, or the TypeScript source through tsx (tests, benches). */
function entry(): { script: URL | string; eval?: boolean } {
  const js = new URL("./extract-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(js))) return { script: js };
  // Loader hooks given by --import do not reach worker threads on Node 20: the worker loads tsx itself.
  const pkg = createRequire(import.meta.url).resolve("tsx/package.json");
  const api = pathToFileURL(join(dirname(pkg), "dist/esm/api/index.mjs")).href;
  const ts = new URL("./extract-worker.ts", import.meta.url).href;
  return { script: `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(ts)}, ${JSON.stringify(api)}))`, eval: true };
}

const failed = (message: string): FieldOutcome => ({ status: "ERROR", error: fieldError(new ExtractionError("TOO_LARGE", message)), units: [], languages: [] });

/**
 * Runs extraction and splitting in worker threads: parsing a PDF or a spreadsheet no longer holds
 * the event loop that serves requests and writes the index, the cores work in parallel, and each
 * worker's heap is capped, so one huge document costs an ERROR on its field rather than the daemon.
 */
export class ExtractPool {
  readonly size: number;
  private readonly maxHeapMb: number;
  private readonly jobsPerWorker: number;
  private readonly slots: (Slot | undefined)[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(opts: ExtractPoolOptions = {}) {
    const env = Number(process.env.KBOX_EXTRACT_WORKERS);
    this.size = Math.max(1, opts.size ?? (env || Math.min(4, availableParallelism())));
    this.maxHeapMb = opts.maxHeapMb ?? 768;
    this.jobsPerWorker = opts.jobsPerWorker ?? 500;
    this.slots = Array.from({ length: this.size }, () => undefined);
  }

  /** Extract and split one field in a worker; resolves with its outcome (ERROR outcomes included). */
  run(doc: FieldDoc, blobs: BlobPaths, signal?: AbortSignal, opts?: ProcessOptions): Promise<FieldOutcome> {
    if (this.closed) return Promise.reject(new Error("the extraction pool is closed"));
    signal?.throwIfAborted();
    const msg: ExtractJob = { id: this.nextId++, doc, blob: doc.blob ? blobs.path(doc.blob) : undefined, opts };
    return new Promise((resolve, reject) => {
      this.waiting.push({ msg, resolve, reject, signal });
      this.dispatch();
    });
  }

  /** Stop the workers; jobs still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.waiting.splice(0)) j.reject(new Error("the extraction pool is closed"));
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
  }

  private dispatch(): void {
    for (let i = 0; i < this.slots.length && this.waiting.length; i++) {
      if (this.slots[i]?.job) continue;
      const job = this.waiting.shift() as Job;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason);
        i--;
        continue;
      }
      const slot = this.slots[i] ?? this.spawn(i);
      slot.job = job;
      slot.onAbort = () => slot.worker.postMessage({ cancel: job.msg.id });
      job.signal?.addEventListener("abort", slot.onAbort, { once: true });
      slot.worker.postMessage(job.msg);
    }
  }

  private spawn(i: number): Slot {
    const { script, eval: isEval } = entry();
    const worker = new Worker(script, { eval: isEval, resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb } });
    const slot: Slot = { worker, done: 0 };
    this.slots[i] = slot;
    worker.on("message", (reply: ExtractReply) => {
      const job = this.finish(slot);
      if (!job) return;
      if ("outcome" in reply) job.resolve(reply.outcome);
      else job.reject(reply.aborted ? (job.signal?.reason ?? new Error(reply.error)) : new Error(reply.error));
      if (++slot.done >= this.jobsPerWorker) this.retire(i, slot);
      this.dispatch();
    });
    worker.on("error", (err) => this.crashed(i, slot, err));
    worker.on("exit", (code) => this.crashed(i, slot, new Error(`the extraction worker exited (${code})`)));
    return slot;
  }

  /** Detach the slot's job (and its abort listener) and return it. */
  private finish(slot: Slot): Job | undefined {
    const job = slot.job;
    slot.job = undefined;
    if (job && slot.onAbort) job.signal?.removeEventListener("abort", slot.onAbort);
    return job;
  }

  private retire(i: number, slot: Slot): void {
    if (this.slots[i] === slot) this.slots[i] = undefined;
    slot.worker.removeAllListeners("exit");
    void slot.worker.terminate();
  }

  /** A worker died (out of memory, a native crash): its field ends as ERROR and a fresh worker takes over. */
  private crashed(i: number, slot: Slot, err: Error & { code?: string }): void {
    if (this.slots[i] !== slot) return;
    this.slots[i] = undefined;
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    const job = this.finish(slot);
    if (job && !this.closed) {
      if (job.signal?.aborted) job.reject(job.signal.reason);
      else if (err.code === "ERR_WORKER_OUT_OF_MEMORY") job.resolve(failed(`The document needs more than ${this.maxHeapMb} MB of memory to extract`));
      else job.resolve({ status: "ERROR", error: fieldError(err), units: [], languages: [] });
    }
    if (!this.closed) this.dispatch();
  }
}
