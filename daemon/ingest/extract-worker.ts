/**
 * The extraction worker, a child process of the daemon: extracts and splits fields (the CPU- and
 * memory-heavy part of ingestion) outside the process that holds the index. The pool sends
 * `{id, doc, blob}` (up to two at a time, run in turn) and gets back `{id, prepared}` (plain data; the daemon detects languages and
 * finishes the outcome), or `{id, error}` when something unexpected threw. A parser that exhausts
 * its heap or crashes takes only this process down.
 */
import type { FieldDoc } from "../store/index.js";
import { deferLanguageDetection } from "./language.js";
import { type PreparedField, type ProcessOptions, prepareField } from "./process-field.js";

/** A job sent to the worker: the field record and the path of its blob (file fields). */
export interface ExtractJob {
  id: number;
  doc: FieldDoc;
  blob?: string;
  opts?: ProcessOptions;
}

/** What the worker answers. */
export type ExtractReply = ({ id: number; prepared: PreparedField } | { id: number; error: string; aborted?: boolean }) & {
  /** The worker's resident memory after the job, in bytes: the pool replaces workers that grew too big. */
  rss: number;
};

const send = process.send?.bind(process);
if (!send) throw new Error("extract-worker must run as a child process with an IPC channel");
const running = new Map<number, AbortController>();
deferLanguageDetection(); // the daemon detects languages: one detector in memory, not one per worker
process.on("disconnect", () => process.exit(0)); // the daemon is gone

// Jobs run one after the other (the pool sends the next before this one is answered): a parse
// has the process's heap to itself, and a crash is the running job's.
let line: Promise<void> = Promise.resolve();

process.on("message", (msg: ExtractJob | { cancel: number }) => {
  if ("cancel" in msg) {
    running.get(msg.cancel)?.abort();
    return;
  }
  const ac = new AbortController();
  running.set(msg.id, ac);
  line = line.then(() => run(msg, ac));
});

async function run(msg: ExtractJob, ac: AbortController): Promise<void> {
  const blobs = { path: () => msg.blob ?? "" };
  let reply: ExtractReply;
  try {
    // Cancelled while it waited: answered without running.
    ac.signal.throwIfAborted();
    reply = { id: msg.id, prepared: await prepareField(msg.doc, blobs, ac.signal, msg.opts), rss: process.memoryUsage.rss() };
  } catch (e) {
    reply = { id: msg.id, error: (e as Error)?.message ?? String(e), aborted: ac.signal.aborted, rss: process.memoryUsage.rss() };
  } finally {
    running.delete(msg.id);
  }
  send?.(reply);
}
