import type { ActivityFilters, FilterOps } from "../../src/api/activity.js";

type Value = unknown;

/** SQL LIKE (`%` any run, `_` one character) as a regular expression; `ilike` ignores case. */
function likeRegex(pattern: string, ignoreCase: boolean): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\%_]/g, (c) => (c === "%" ? ".*" : c === "_" ? "." : `\\${c}`));
  return new RegExp(`^${body}$`, ignoreCase ? "is" : "s");
}

/** Compare a member's value with an operand: numbers as numbers, dates as instants, the rest as text. */
function compare(a: Value, b: Value): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "" && !Number.isNaN(Number(b))) return a - Number(b);
  if (typeof a === "boolean" || typeof b === "boolean") return String(a) === String(b) ? 0 : String(a) < String(b) ? -1 : 1;
  const sa = String(a);
  const sb = String(b);
  const da = Date.parse(sa);
  const db = Date.parse(sb);
  if (/^\d{4}-\d{2}/.test(sa) && /^\d{4}-\d{2}/.test(sb) && !Number.isNaN(da) && !Number.isNaN(db)) return da - db;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const isNull = (v: Value) => v === undefined || v === null;
const same = (a: Value, b: Value) => !isNull(a) && compare(a, b) === 0;

/** Whether a value passes every operator of one filter member (operators combine with AND). */
export function passes(v: Value, ops: FilterOps): boolean {
  if (ops.isnull !== undefined && isNull(v) !== ops.isnull) return false;
  if (ops.eq !== undefined && !same(v, ops.eq)) return false;
  if (ops.ne !== undefined && same(v, ops.ne)) return false;
  if (ops.gt !== undefined && (isNull(v) || compare(v, ops.gt) <= 0)) return false;
  if (ops.ge !== undefined && (isNull(v) || compare(v, ops.ge) < 0)) return false;
  if (ops.lt !== undefined && (isNull(v) || compare(v, ops.lt) >= 0)) return false;
  if (ops.le !== undefined && (isNull(v) || compare(v, ops.le) > 0)) return false;
  if (ops.isin && !ops.isin.some((x) => same(v, x))) return false;
  if (ops.isnotin?.some((x) => same(v, x))) return false;
  if (ops.like !== undefined && (isNull(v) || !likeRegex(ops.like, false).test(String(v)))) return false;
  if (ops.ilike !== undefined && (isNull(v) || !likeRegex(ops.ilike, true).test(String(v)))) return false;
  return true;
}

/**
 * Whether a row passes the filters: every member's operators; each audit_metadata item applies its
 * operators to the metadata value under `key` (without a key, to any of its values).
 */
export function matches(row: Record<string, unknown>, filters: ActivityFilters): boolean {
  for (const [member, ops] of Object.entries(filters)) {
    if (!ops || member === "audit_metadata") continue;
    if (!passes(row[member], ops as FilterOps)) return false;
  }
  const meta = (row.audit_metadata ?? null) as Record<string, unknown> | null;
  for (const item of filters.audit_metadata ?? []) {
    const { key, ...ops } = item;
    if (key !== undefined) {
      if (!passes(meta?.[key], ops)) return false;
    } else if (!Object.values(meta ?? {}).some((v) => passes(v, ops)) && !(ops.isnull && !meta)) return false;
  }
  return true;
}
