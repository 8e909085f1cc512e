/**
 * The extraction worker: runs `processField` (extract + split, the CPU- and memory-heavy part of
 * ingestion) off the daemon's main thread. One job at a time; the pool sends `{id, doc, blob}` and
 * gets back `{id, outcome}` (plain data), or `{id, error}` when something unexpected threw.
 */
import { parentPort } from "node:worker_threads";
import type { FieldDoc } from "../store/index.js";
import { type ProcessOptions, processField } from "./process-field.js";

/** A job sent to the worker: the field record and the path of its blob (file fields). */
export interface ExtractJob {
  id: number;
  doc: FieldDoc;
  blob?: string;
  opts?: ProcessOptions;
}

/** What the worker answers. */
export type ExtractReply = { id: number; outcome: Awaited<ReturnType<typeof processField>> } | { id: number; error: string; aborted?: boolean };

const port = parentPort;
if (!port) throw new Error("extract-worker must run in a worker thread");
const running = new Map<number, AbortController>();

port.on("message", async (msg: ExtractJob | { cancel: number }) => {
  if ("cancel" in msg) {
    running.get(msg.cancel)?.abort();
    return;
  }
  const ac = new AbortController();
  running.set(msg.id, ac);
  const blobs = { path: () => msg.blob ?? "" };
  let reply: ExtractReply;
  try {
    reply = { id: msg.id, outcome: await processField(msg.doc, blobs, ac.signal, msg.opts) };
  } catch (e) {
    reply = { id: msg.id, error: (e as Error)?.message ?? String(e), aborted: ac.signal.aborted };
  } finally {
    running.delete(msg.id);
  }
  port.postMessage(reply);
});
