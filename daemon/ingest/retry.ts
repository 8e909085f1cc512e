/**
 * Transient failures (a link's server down or answering 429/5xx, an embeddings endpoint unreachable)
 * do not end a field as ERROR: the field stays PENDING and is retried with exponential backoff until a
 * deadline counted from its first failure, then it becomes EXPIRED. The first failure, the attempt
 * count and the next attempt live on the field's summary in the resource record, so a restart neither
 * forgets the schedule nor resets the deadline.
 */

import type { FieldError } from "../../src/api/common.js";
import type { FetchPolicy } from "../net/outbound.js";
import type { FieldSummary } from "../store/records.js";
import type { FieldOutcome } from "./process-field.js";

/** When to retry and when to give up. */
export interface RetryPolicy {
  /** Give up (EXPIRED) when a field has kept failing this long since its first failure. */
  deadlineMs: number;
  /** The first retry waits this long; each next one twice as long... */
  firstDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
}

/** Ingestion's settings (daemon/settings). */
export interface IngestSettings {
  /** Resources in flight at once: storage latency is hidden by batching (KBOX_INGEST_CONCURRENCY). */
  concurrency: number;
  /** Extraction worker processes (KBOX_EXTRACT_WORKERS). */
  extractWorkers: number;
  /** Field threads (field-threads.ts); 0: small fields are analysed on the daemon's thread. */
  fieldThreads: number;
  retry: RetryPolicy;
  /** What links may reach: the daemon's outbound policy (KBOX_FETCH_ALLOW_PRIVATE, KBOX_FETCH_ALLOW). */
  fetch: FetchPolicy;
  /** Images and PDF pages without a text layer are read by OCR (KBOX_OCR). */
  ocr: boolean;
  /** Named entities are extracted while ingesting (KBOX_ENTITIES; a box opts out with `ner_model: none`). */
  entities: boolean;
}

export type RetryState = NonNullable<FieldSummary["retry"]>;

const human = (ms: number) =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} min`
      : `${Math.round(ms / 3600_000)} h`;

/** A transient outcome of a field that has failed since past the deadline becomes EXPIRED (mutates `outcome`). */
export function expireIfDue(policy: RetryPolicy, prev: RetryState | undefined, outcome: FieldOutcome, now = Date.now()): void {
  if (!outcome.transient) return;
  const since = prev ? Date.parse(prev.since) : now;
  if (now - since < policy.deadlineMs) return;
  const attempts = (prev?.attempts ?? 0) + 1;
  const last = outcome.error as FieldError;
  const error: FieldError = {
    body: `Expired: gave up after ${attempts} attempt(s) over ${human(now - since)} (first failure ${new Date(since).toISOString()}); last error: ${last.body}`,
    code: last.code,
    code_str: "EXPIRED",
    created: new Date(now).toISOString(),
    severity: "ERROR",
  };
  Object.assign(outcome, { status: "EXPIRED", error, transient: false });
  delete outcome.retryAfterMs;
}

/** The retry state after one more transient failure: backoff doubling from firstDelayMs, Retry-After honoured, never past the deadline. */
export function nextRetry(
  policy: RetryPolicy,
  prev: RetryState | undefined,
  outcome: FieldOutcome,
  now = Date.now(),
): RetryState {
  const since = prev ? Date.parse(prev.since) : now;
  const attempts = (prev?.attempts ?? 0) + 1;
  const backoff = policy.firstDelayMs * 2 ** Math.min(attempts - 1, 30);
  const delay = Math.min(policy.maxDelayMs, outcome.retryAfterMs ?? backoff);
  // The last attempt happens at the deadline: if it fails too, the field expires.
  const at = Math.min(now + delay, since + policy.deadlineMs);
  return { since: new Date(since).toISOString(), attempts, next: new Date(Math.max(at, now)).toISOString() };
}
