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

export const notFound = (detail: string) => new KboxError(404, detail);
export const conflict = (detail: string) => new KboxError(409, detail);
export const badRequest = (detail: string) => new KboxError(400, detail);
export const forbidden = () => new KboxError(403, "Forbidden");
export const invalid = (issues: ValidationIssue[]) => new KboxError(422, issues);
