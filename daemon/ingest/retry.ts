/**
 * Transient failures (a link's server down or answering 429/5xx, an embeddings endpoint unreachable)
 * do not end a field as ERROR: the field stays PENDING and is retried with exponential backoff until a
 * deadline counted from its first failure, then it becomes EXPIRED. The first failure, the attempt
 * count and the next attempt live on the field's summary in the resource record, so a restart neither
 * forgets the schedule nor resets the deadline.
 */
import type { FieldError } from "../../src/api/common.js";
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

/** The ingestion settings the daemon reads from its environment. */
export interface IngestSettings {
  retry: RetryPolicy;
  /** Links may reach loopback/private/link-local addresses. */
  allowPrivateLinks: boolean;
  /** Extraction worker processes (KBOX_EXTRACT_WORKERS; default: see ExtractPool). */
  extractWorkers?: number;
}

export type RetryState = NonNullable<FieldSummary["retry"]>;

export const DEFAULT_RETRY: RetryPolicy = { deadlineMs: 24 * 3600_000, firstDelayMs: 2_000, maxDelayMs: 600_000 };

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** "500ms", "60s", "10m", "24h", "2d" or a number of seconds, in ms. */
export function parseDuration(v: string, name: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(v);
  if (!m) throw new Error(`${name} must be a duration such as 60s, 10m or 24h, not ${JSON.stringify(v)}`);
  return Math.round(Number(m[1]) * UNITS[(m[2] ?? "s").toLowerCase()]);
}

function flag(v: string, name: string): boolean {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new Error(`${name} must be 1 or 0, not ${JSON.stringify(v)}`);
}

/**
 * Settings from the daemon's environment. Private link addresses are allowed by default only when
 * the daemon serves its Unix socket alone: then every caller is a local user who can reach those
 * addresses anyway, whereas with a TCP listener a remote caller could use links to probe the host's network.
 */
export function ingestSettings(env: NodeJS.ProcessEnv, tcp: boolean): IngestSettings {
  const d = (key: string, def: number) => (env[key] ? parseDuration(env[key] as string, key) : def);
  const retry: RetryPolicy = {
    deadlineMs: d("KBOX_INGEST_RETRY_DEADLINE", DEFAULT_RETRY.deadlineMs),
    firstDelayMs: d("KBOX_INGEST_RETRY_DELAY", DEFAULT_RETRY.firstDelayMs),
    maxDelayMs: d("KBOX_INGEST_RETRY_MAX_DELAY", DEFAULT_RETRY.maxDelayMs),
  };
  const allow = env.KBOX_LINKS_ALLOW_PRIVATE;
  const workers = env.KBOX_EXTRACT_WORKERS ? Number(env.KBOX_EXTRACT_WORKERS) : undefined;
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 64)) {
    throw new Error(`KBOX_EXTRACT_WORKERS must be a whole number from 1 to 64, not ${JSON.stringify(env.KBOX_EXTRACT_WORKERS)}`);
  }
  return { retry, allowPrivateLinks: allow ? flag(allow, "KBOX_LINKS_ALLOW_PRIVATE") : !tcp, extractWorkers: workers };
}

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
