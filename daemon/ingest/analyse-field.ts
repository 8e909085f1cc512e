/**
 * The analysis of a small plain field that needs no store: extraction and splitting (unless a worker
 * process prepared them), language detection and entities. Runs on a field thread (field-thread.ts)
 * or, without one, on the daemon's thread (field-threads.ts).
 */
import type { FieldDoc } from "../store/index.js";
import { findEntities } from "./entities.js";
import { type FieldOutcome, finishField, type PreparedField, type ProcessOptions, prepareField } from "./process-field.js";

/** A field to analyse: extract it from its value or bytes, or finish what a worker process prepared. */
export interface FieldJob {
  id: number;
  doc: FieldDoc;
  opts?: ProcessOptions;
  prepared?: PreparedField;
}

export type FieldReply = { id: number; outcome: FieldOutcome } | { id: number; error: string };

/** Extract (unless prepared), detect languages and read entities: the outcome, with its entity facets. */
export async function analyseField(job: Omit<FieldJob, "id">): Promise<FieldOutcome> {
  const { entities, ...opts } = job.opts ?? {};
  // Bytes arrive as a Uint8Array: a Buffer view of the same memory for the parsers.
  if (opts.bytes && !Buffer.isBuffer(opts.bytes))
    opts.bytes = Buffer.from(
      (opts.bytes as Uint8Array).buffer,
      (opts.bytes as Uint8Array).byteOffset,
      (opts.bytes as Uint8Array).length,
    );
  const prepared = job.prepared ?? (await prepareField(job.doc, { path: () => "" }, undefined, opts));
  const outcome = await finishField(job.doc, prepared);
  if (entities && outcome.status === "PROCESSED") findEntities(entities.rid, job.doc, outcome, entities.groups);
  return outcome;
}
