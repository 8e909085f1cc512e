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
  | "SELECTOR_NO_MATCH";

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
};

/** A handled extraction failure: the queue records it on the field (status ERROR) instead of crashing. */
export class ExtractionError extends Error {
  readonly code: number;
  override readonly name = "ExtractionError";
  constructor(
    readonly code_str: ExtractionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = NUMERIC[code_str];
  }
}

/** Wraps an unexpected library failure as CORRUPT_FILE, keeping handled errors as they are. */
export function asExtractionError(err: unknown, what: string): ExtractionError {
  if (err instanceof ExtractionError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new ExtractionError("CORRUPT_FILE", `Cannot read ${what}: ${detail}`, { cause: err });
}
