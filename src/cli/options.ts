import type { Classification } from "../client/routes/common.js";
import { usageError } from "./errors.js";

/** Commander collector for repeatable options (`--label a/b --label c/d`). */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `labelset/label` strings into classifications (usage error, exit 2, for a malformed one). */
export function parseLabels(labels: string[] | undefined): Classification[] | undefined {
  if (!labels?.length) return undefined;
  return labels.map((l) => {
    const i = l.indexOf("/");
    if (i <= 0 || i === l.length - 1) throw usageError(`label ${JSON.stringify(l)} is not labelset/label`);
    return { labelset: l.slice(0, i), label: l.slice(i + 1) };
  });
}

/**
 * A whole-number flag within bounds, else a usage error (exit 2) naming the flag and the value —
 * never the request field it becomes (`--top-k abc`, not `body.top_k`).
 */
export function intFlag(name: string, v: string | undefined, min: number, max?: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || n < min || (max !== undefined && n > max))
    throw usageError(
      `${name} takes a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}, not ${JSON.stringify(v)}`,
    );
  return n;
}

/** A number flag (decimals allowed) within bounds, else a usage error naming the flag. */
export function numberFlag(name: string, v: string | undefined, min?: number, max?: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
    const range =
      min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : "";
    throw usageError(`${name} takes a number${range}, not ${JSON.stringify(v)}`);
  }
  return n;
}
