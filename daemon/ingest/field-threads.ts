import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { FieldDoc } from "../store/index.js";
import { analyseField, type FieldJob, type FieldReply } from "./analyse-field.js";
import type { FieldOutcome, PreparedField, ProcessOptions } from "./process-field.js";

interface Pending {
  resolve: (o: FieldOutcome) => void;
  reject: (e: unknown) => void;
  job: Omit<FieldJob, "id">;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Pending>;
}

/** The thread's entry: compiled JavaScript next to this file, or the TypeScript source through tsx (tests, benches). */
function spawn(): Worker {
  const js = fileURLToPath(new URL("./field-thread.js", import.meta.url));
  if (existsSync(js)) return new Worker(js);
  const tsx = dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(join(tsx, "dist", "esm", "api", "index.mjs")).href;
  const ts = new URL("./field-thread.ts", import.meta.url).href;
  return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); })`, {
    eval: true,
  });
}

/**
 * Worker threads for the CPU of small plain fields (extraction, splitting, language detection and
 * entities: field-thread.ts), so that on a machine with more than one core the daemon's thread keeps
 * only the writes, which were waiting behind this work. Only small inputs come here (in-process.ts:
 * up to 256 KiB; big or binary documents go to the worker processes, which isolate them), and the
 * outcomes of worker processes are finished here too, so the language detector and
 * the entity lexicon live in these threads, not in the daemon's. With no thread (one core), or when a
 * thread fails, the same work runs on the daemon's thread.
 *
 * None unless told (KBOX_FIELD_THREADS): on the 2-core development machine a thread took 2,000 notes
 * from 9.3 to 6.9 s but 10,000 from 22.0 to 24.2 s (the sync pass and the commits share the daemon's
 * thread either way), for about 150 MB more (its own heap, parsers, detector and lexicon): see
 * docs/benchmarks.md.
 */
export class FieldThreads {
  private readonly threads: (Thread | undefined)[];
  private nextId = 1;
  private closed = false;
  /** Fields analysed by a thread, and on the daemon's thread instead (no thread, or one lost). */
  readonly done = { threads: 0, here: 0 };

  constructor(size: number) {
    this.threads = Array.from({ length: Math.max(0, size) }, () => undefined);
  }

  /** Extract (or finish what a worker process prepared), detect languages and read entities. */
  analyse(doc: FieldDoc, opts?: ProcessOptions, prepared?: PreparedField): Promise<FieldOutcome> {
    const job = { doc, opts, prepared };
    if (this.closed || !this.threads.length) return this.here(job);
    const i = this.least();
    let t = this.threads[i];
    if (!t) {
      try {
        t = this.start(i);
      } catch {
        return this.here(job);
      }
    }
    const thread = t;
    const id = this.nextId++;
    return new Promise<FieldOutcome>((resolve, reject) => {
      thread.jobs.set(id, { resolve, reject, job });
      thread.worker.postMessage({ id, ...job } satisfies FieldJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.threads.map(async (t, i) => {
        this.threads[i] = undefined;
        if (!t) return;
        t.worker.removeAllListeners();
        // Jobs still running finish here: the thread is going away.
        for (const p of t.jobs.values()) this.here(p.job).then(p.resolve, p.reject);
        await t.worker.terminate();
      }),
    );
  }

  private here(job: Omit<FieldJob, "id">): Promise<FieldOutcome> {
    this.done.here++;
    return analyseField(job);
  }

  /** The thread with the fewest jobs (a free slot first). */
  private least(): number {
    let best = 0;
    for (let i = 0; i < this.threads.length; i++) {
      const n = this.threads[i]?.jobs.size ?? -1;
      if (n < (this.threads[best]?.jobs.size ?? -1)) best = i;
    }
    return best;
  }

  private start(i: number): Thread {
    const worker = spawn();
    const t: Thread = { worker, jobs: new Map() };
    this.threads[i] = t;
    worker.unref();
    worker.on("message", (reply: FieldReply) => {
      const p = t.jobs.get(reply.id);
      if (!p) return;
      t.jobs.delete(reply.id);
      this.done.threads++;
      if ("outcome" in reply) p.resolve(reply.outcome);
      else p.reject(new Error(reply.error));
    });
    const lost = () => {
      if (this.threads[i] === t) this.threads[i] = undefined;
      worker.removeAllListeners();
      // The thread is gone (it could not start, or it died): its jobs run here instead.
      for (const p of t.jobs.values()) this.here(p.job).then(p.resolve, p.reject);
      t.jobs.clear();
    };
    worker.on("error", lost);
    worker.on("exit", lost);
    return t;
  }
}
