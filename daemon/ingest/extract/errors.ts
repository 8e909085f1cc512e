/** Why an extraction failed; `code_str` is stable and shown to users in the field's error object. */
export type ExtractionErrorCode =
  | "UNSUPPORTED_FORMAT"
  | "CORRUPT_FILE"
  | "PASSWORD_REQUIRED"
  | "WRONG_PASSWORD"
  | "INVALID_INPUT"
  | "FETCH_FAILED"
  | "FETCH_TIMEOUT"
  | "TOO_LARGE"
  | "SELECTOR_NO_MATCH"
  | "BLOCKED";

// Numeric codes follow the hosted service's error kinds: 1 = extraction, 2 = fetching a link.
const NUMERIC: Record<ExtractionErrorCode, number> = {
  UNSUPPORTED_FORMAT: 1,
  CORRUPT_FILE: 1,
  PASSWORD_REQUIRED: 1,
  WRONG_PASSWORD: 1,
  INVALID_INPUT: 1,
  SELECTOR_NO_MATCH: 1,
  FETCH_FAILED: 2,
  FETCH_TIMEOUT: 2,
  TOO_LARGE: 2,
  BLOCKED: 2,
};

/** How a failure may be retried: transient ones (network, timeout, 408/429/5xx) are, after `retryAfterMs` when the server said. */
export interface ExtractionErrorOptions {
  cause?: unknown;
  transient?: boolean;
  retryAfterMs?: number;
}

/**
 * A handled extraction failure: the queue records it on the field instead of crashing (status ERROR,
 * BLOCKED for code BLOCKED; a transient one keeps the field PENDING and is retried).
 */
export class ExtractionError extends Error {
  readonly code: number;
  readonly transient: boolean;
  readonly retryAfterMs: number | undefined;
  override readonly name = "ExtractionError";
  constructor(
    readonly code_str: ExtractionErrorCode,
    message: string,
    options?: ExtractionErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = NUMERIC[code_str];
    this.transient = options?.transient ?? false;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** Wraps an unexpected library failure as CORRUPT_FILE, keeping handled errors as they are. */
export function asExtractionError(err: unknown, what: string): ExtractionError {
  if (err instanceof ExtractionError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new ExtractionError("CORRUPT_FILE", `Cannot read ${what}: ${detail}`, { cause: err });
}
