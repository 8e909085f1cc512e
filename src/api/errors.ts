import { z } from "zod";

/** One validation problem, as FastAPI-style clients expect it. */
export const ValidationIssue = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  input: z.unknown(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** Every error body: a message, or the list of validation problems (422). */
export const ErrorBody = z.object({ detail: z.union([z.string(), z.array(ValidationIssue)]) });
export type ErrorBody = z.infer<typeof ErrorBody>;

export type Location = "body" | "query" | "path" | "header";

function inputAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function issueType(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return value === undefined ? "missing" : `${issue.expected}_type`;
    case "too_small":
      return issue.origin === "string" ? "string_too_short" : issue.origin === "array" ? "too_short" : "greater_than_equal";
    case "too_big":
      return issue.origin === "string" ? "string_too_long" : issue.origin === "array" ? "too_long" : "less_than_equal";
    case "invalid_format":
      return issue.format === "regex" ? "string_pattern_mismatch" : `${issue.format}_parsing`;
    case "unrecognized_keys":
      return "extra_forbidden";
    case "invalid_value":
      return "enum";
    case "invalid_union":
      return "union_error";
    default:
      return issue.code;
  }
}

/** Turn a zod error into the wire's 422 detail list, locating each problem under `where`. */
export function toValidationIssues(error: z.ZodError, where: Location, input: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const loc = [where, ...base, key];
        out.push({
          type: "extra_forbidden",
          loc,
          msg: "Extra inputs are not permitted",
          input: inputAt(input, [...issue.path, key]),
        });
      }
      continue;
    }
    const ctx: Record<string, unknown> = {};
    if (issue.code === "too_small") ctx.min = issue.minimum;
    if (issue.code === "too_big") ctx.max = issue.maximum;
    if (issue.code === "invalid_value") ctx.expected = issue.values.map((v) => String(v)).join(", ");
    if (issue.code === "invalid_format" && "pattern" in issue && issue.pattern) ctx.pattern = String(issue.pattern);
    const value = inputAt(input, issue.path);
    const missing = value === undefined && issue.code === "invalid_type";
    out.push({
      type: issueType(issue, value),
      loc: [where, ...base],
      msg: missing ? "Field required" : issue.message,
      input: truncateInput(value),
      ...(Object.keys(ctx).length ? { ctx } : {}),
    });
  }
  return out;
}

/** Echoing a 10 MB string back in an error helps nobody. */
function truncateInput(v: unknown): unknown {
  if (typeof v === "string" && v.length > 200) return `${v.slice(0, 200)}…`;
  if (v !== null && typeof v === "object") {
    try {
      if (JSON.stringify(v).length > 1000) return "<omitted: too large>";
    } catch {
      return "<omitted: too large>"; // nested beyond the stack
    }
  }
  return v;
}

/** A ready 422 issue for problems found outside a schema (e.g. malformed JSON). */
export function issue(
  type: string,
  loc: (string | number)[],
  msg: string,
  input?: unknown,
  ctx?: Record<string, unknown>,
): ValidationIssue {
  return { type, loc, msg, input: truncateInput(input), ...(ctx ? { ctx } : {}) };
}
