import type { ValidationIssue } from "../src/api/errors.js";

/** A handled error: services throw it, the HTTP layer answers `{detail}` with its status. */
export class KboxError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : "Validation error");
  }
}

/** Linux's numbers of the codes `exhausted` answers, as native libraries (LanceDB) print them: "(os error 28)". */
const OS_ERRORS: Record<string, string> = { "28": "ENOSPC", "122": "EDQUOT", "24": "EMFILE", "23": "ENFILE" };

/** The system error code (ENOSPC, EMFILE...) somewhere in an error's cause chain. */
export function systemCode(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown; message?: unknown } | undefined, i = 0;
    e && i < 6;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
    const os = typeof e.message === "string" ? /\(os error (\d+)\)/.exec(e.message) : null;
    if (os && OS_ERRORS[os[1]]) return OS_ERRORS[os[1]];
  }
  return undefined;
}

/**
 * A request that failed because the machine ran out of something, as a clear answer instead of a 500:
 * 507 when the disk is full (the write was not made; reads go on), 503 when file descriptors run out.
 */
export function exhausted(err: unknown): KboxError | undefined {
  const code = systemCode(err);
  if (code === "ENOSPC" || code === "EDQUOT")
    return new KboxError(
      507,
      "The disk holding the daemon's data is full: nothing was written. Reads keep working; free some space and retry.",
    );
  if (code === "EMFILE" || code === "ENFILE")
    return new KboxError(503, "The daemon has too many open files right now; retry shortly.", { "retry-after": "1" });
  return undefined;
}

export const notFound = (detail: string) => new KboxError(404, detail);
export const conflict = (detail: string) => new KboxError(409, detail);
export const badRequest = (detail: string) => new KboxError(400, detail);
export const forbidden = () => new KboxError(403, "Forbidden");
export const invalid = (issues: ValidationIssue[]) => new KboxError(422, issues);
