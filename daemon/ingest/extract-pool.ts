import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FieldDoc } from "../store/index.js";
import { ExtractionError } from "./extract/errors.js";
import type { ExtractJob, ExtractReply } from "./extract-worker.js";
import {
  type BlobPaths,
  type FieldOutcome,
  failedOutcome,
  finishField,
  type PreparedField,
  type ProcessOptions,
} from "./process-field.js";

/** Sizing of the extraction pool. */
export interface ExtractPoolOptions {
  /** Worker processes (default: defaultExtractWorkers(); the daemon passes KBOX_EXTRACT_WORKERS). */
  size?: number;
  /** Heap limit of each worker in MB (default 1024): a document that needs more ends as ERROR, the daemon lives on. */
  maxHeapMb?: number;
  /** A worker with nothing to do exits after this long (ms), giving its memory back. */
  idleMs?: number;
  /**
   * A worker whose resident memory passed this (MB) after a job is replaced (default 320): V8 keeps
   * the heap a big document needed, so without this a worker's memory only ever grows.
   */
  recycleMb?: number;
  /** A worker is replaced after this many jobs, so that parser caches and heap fragmentation never pile up. */
  jobsPerWorker?: number;
}

interface Job {
  msg: ExtractJob;
  /** Turns what the worker prepared into the field's outcome (languages, entities). */
  finish: (prepared: PreparedField) => Promise<FieldOutcome>;
  resolve: (o: FieldOutcome) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  /** Sends the worker a cancel for this job once it was sent there. */
  onAbort?: () => void;
}

interface Slot {
  worker: ChildProcess;
  /** Jobs sent to the worker, in order: the first is running, the next waits in the worker (JOBS_SENT). */
  jobs: Job[];
  done: number;
  idle?: NodeJS.Timeout;
  rss: number;
}

/**
 * Jobs a worker holds at once: the one it runs and the next, so that it starts the next as soon as
 * it answers instead of waiting for the daemon's thread to read the answer and send more (busy with
 * writes, it left the workers idle a third of the time on the bench's mixed corpus). A worker runs
 * them one after the other; when it dies, only the running one fails, the next goes to another.
 */
const JOBS_SENT = 2;

/**
 * A worker's young generation (MB per semi-space; V8's default is 16). What a parse allocates mostly
 * dies within the job, and a small young generation keeps each worker ~25 MB smaller: 300 PDFs of
 * the bench's set extracted in one process peaked at 137 MB of RSS against 161 MB, in the same time
 * (58 s against 59 s).
 */
const WORKER_SEMI_SPACE_MB = 4;

/** The worker's entry: compiled JavaScript next to this file, or the TypeScript source through tsx (tests, benches). */
function entry(): { script: string; execArgv: string[] } {
  const js = fileURLToPath(new URL("./extract-worker.js", import.meta.url));
  if (existsSync(js)) return { script: js, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { script: fileURLToPath(new URL("./extract-worker.ts", import.meta.url)), execArgv: ["--import", tsx] };
}

/** Worker processes unless told: the core count, at most 4. */
export const defaultExtractWorkers = (): number => Math.min(4, availableParallelism());

/**
 * Runs extraction and splitting in worker processes: parsing a PDF or a spreadsheet no longer holds
 * the event loop that serves requests and writes the index, the cores work in parallel, and each
 * worker's heap is capped, so one huge or hostile document costs an ERROR on its field, not the
 * daemon. (Worker threads were tried first: V8 aborts the whole process when a thread's heap limit
 * is hit by one large allocation, so they isolate nothing.)
 */
export class ExtractPool {
  readonly size: number;
  private readonly maxHeapMb: number;
  private readonly jobsPerWorker: number;
  private readonly idleMs: number;
  private readonly recycleBytes: number;
  private readonly slots: (Slot | undefined)[];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(opts: ExtractPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? defaultExtractWorkers());
    this.maxHeapMb = opts.maxHeapMb ?? 1024;
    this.jobsPerWorker = opts.jobsPerWorker ?? 500;
    this.idleMs = opts.idleMs ?? 60_000;
    this.recycleBytes = (opts.recycleMb ?? 320) * 2 ** 20;
    this.slots = Array.from({ length: this.size }, () => undefined);
  }

  /**
   * Extract and split one field in a worker; resolves with its outcome (ERROR outcomes included),
   * finished by `finish` (default: languages detected on this thread).
   */
  run(
    doc: FieldDoc,
    blobs: BlobPaths,
    signal?: AbortSignal,
    opts?: ProcessOptions,
    finish: (prepared: PreparedField) => Promise<FieldOutcome> = (prepared) => finishField(doc, prepared),
  ): Promise<FieldOutcome> {
    if (this.closed) return Promise.reject(new Error("the extraction pool is closed"));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const msg: ExtractJob = { id: this.nextId++, doc, blob: doc.blob ? blobs.path(doc.blob) : undefined, opts };
    return new Promise((resolve, reject) => {
      this.waiting.push({ msg, finish, resolve, reject, signal });
      this.dispatch();
    });
  }

  /** Workers running, and their resident memory after their last job (bytes). */
  memory(): { workers: number; rss_bytes: number } {
    const live = this.slots.filter((s): s is Slot => Boolean(s));
    return { workers: live.length, rss_bytes: live.reduce((n, s) => n + s.rss, 0) };
  }

  /** Stop the workers; jobs still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error("the extraction pool is closed");
    for (const j of this.waiting.splice(0)) j.reject(closed);
    for (const s of this.slots) if (s) for (const j of this.detach(s)) j.reject(closed); // jobs still running are abandoned
    await Promise.all(this.slots.map((s, i) => s && this.retire(i, s)));
  }

  /** Send waiting jobs to the workers: first one to each worker without a job, then a second to each. */
  private dispatch(): void {
    for (let depth = 1; depth <= JOBS_SENT; depth++)
      for (let i = 0; i < this.slots.length && this.waiting.length; i++) {
        if ((this.slots[i]?.jobs.length ?? 0) >= depth) continue;
        const job = this.waiting.shift() as Job;
        if (job.signal?.aborted) {
          job.reject(job.signal.reason);
          i--;
          continue;
        }
        const slot = this.slots[i] ?? this.spawn(i);
        clearTimeout(slot.idle);
        slot.jobs.push(job);
        job.onAbort = () => slot.worker.connected && slot.worker.send({ cancel: job.msg.id });
        job.signal?.addEventListener("abort", job.onAbort, { once: true });
        slot.worker.send(job.msg);
      }
  }

  private spawn(i: number): Slot {
    const { script, execArgv } = entry();
    const worker = fork(script, [], {
      execArgv: [...execArgv, `--max-old-space-size=${this.maxHeapMb}`, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const slot: Slot = { worker, jobs: [], done: 0, rss: 0 };
    this.slots[i] = slot;
    worker.on("message", (reply: ExtractReply) => {
      const at = slot.jobs.findIndex((j) => j.msg.id === reply.id);
      if (at < 0) return;
      const [job] = slot.jobs.splice(at, 1);
      this.unlisten(job);
      if ("prepared" in reply) job.finish(reply.prepared).then(job.resolve, job.reject);
      else job.reject(reply.aborted ? (job.signal?.reason ?? new Error(reply.error)) : new Error(reply.error));
      slot.rss = reply.rss;
      if (++slot.done >= this.jobsPerWorker || reply.rss > this.recycleBytes) {
        // The job sent ahead goes back to the front of the line, for the next worker.
        this.waiting.unshift(...this.detach(slot));
        void this.retire(i, slot);
      } else if (!this.waiting.length && !slot.jobs.length)
        slot.idle = setTimeout(() => !slot.jobs.length && this.retire(i, slot), this.idleMs).unref();
      this.dispatch();
    });
    worker.on("error", (err) => this.crashed(i, slot, err.message));
    worker.on("exit", (code, signal) => this.crashed(i, slot, signal ?? `exit code ${code}`));
    return slot;
  }

  /** Detach the slot's jobs (and their abort listeners) and return them, in the order sent. */
  private detach(slot: Slot): Job[] {
    const jobs = slot.jobs.splice(0);
    for (const j of jobs) this.unlisten(j);
    return jobs;
  }

  private unlisten(job: Job): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    job.onAbort = undefined;
  }

  /** Let a worker go (quota reached, idle, or closing): it finishes nothing, it has no job. */
  private retire(i: number, slot: Slot): Promise<void> {
    if (this.slots[i] === slot) this.slots[i] = undefined;
    clearTimeout(slot.idle);
    slot.worker.removeAllListeners("exit");
    slot.worker.removeAllListeners("message");
    if (slot.worker.exitCode !== null || slot.worker.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((r) => slot.worker.once("exit", () => r()));
    slot.worker.kill();
    return gone;
  }

  /** A worker died (out of memory, a native crash): its field ends as ERROR and a fresh worker takes over. */
  private crashed(i: number, slot: Slot, why: string): void {
    if (this.slots[i] !== slot) return;
    this.slots[i] = undefined;
    clearTimeout(slot.idle);
    slot.worker.removeAllListeners();
    slot.worker.kill("SIGKILL");
    // The first job was running; the one sent ahead never started: it goes to the next worker.
    const [job, ...ahead] = this.detach(slot);
    if (!this.closed) this.waiting.unshift(...ahead);
    if (job && !this.closed) {
      // V8 aborts (SIGABRT, or exit code 134) when the heap limit is reached.
      if (job.signal?.aborted) job.reject(job.signal.reason);
      else if (why === "SIGABRT" || why === "exit code 134") {
        job.resolve(
          failedOutcome(
            new ExtractionError("TOO_LARGE", `The document needs more than ${this.maxHeapMb} MB of memory to extract`),
          ),
        );
      } else job.resolve(failedOutcome(new Error(`the extraction worker died (${why})`)));
    }
    if (!this.closed) this.dispatch();
  }
}
