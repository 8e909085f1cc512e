import type { Aggregation } from "../../src/api/activity.js";
import type { ActivityRecord } from "../store/index.js";

/** The start of the bucket holding `t` (UTC; weeks start on Monday; millennium: one bucket from `from`). */
export function bucketStart(t: number, agg: Aggregation, from: number): number {
  const d = new Date(t);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (agg) {
    case "hour":
      return Date.UTC(y, m, d.getUTCDate(), d.getUTCHours());
    case "day":
      return Date.UTC(y, m, d.getUTCDate());
    case "week":
      return Date.UTC(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    case "month":
      return Date.UTC(y, m, 1);
    case "quarter":
      return Date.UTC(y, m - (m % 3), 1);
    case "year":
      return Date.UTC(y, 0, 1);
    default:
      return from;
  }
}

/** The next bucket's start after `start`. */
function nextStart(start: number, agg: Aggregation): number {
  const d = new Date(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const step: Partial<Record<Aggregation, () => number>> = {
    hour: () => start + 3600_000,
    day: () => Date.UTC(y, m, day + 1),
    week: () => Date.UTC(y, m, day + 7),
    month: () => Date.UTC(y, m + 1, 1),
    quarter: () => Date.UTC(y, m + 3, 1),
    year: () => Date.UTC(y + 1, 0, 1),
  };
  return step[agg]?.() ?? Number.POSITIVE_INFINITY;
}

/** Past this many buckets, only those with rows are listed. */
const MAX_BUCKETS = 5000;

/**
 * Fold rows into consecutive buckets from `from` to `to` (every bucket listed, empty ones too, so a
 * chart has no gaps); each point gets its bucket's ISO timestamp.
 */
export function buckets<P extends object>(
  rows: readonly ActivityRecord[],
  from: number,
  to: number,
  agg: Aggregation,
  empty: () => P,
  add: (p: P, r: ActivityRecord) => void,
): (P & { timestamp: string })[] {
  const points = new Map<number, P>();
  let n = 0;
  for (let t = bucketStart(from, agg, from); t <= to && n < MAX_BUCKETS; t = nextStart(t, agg), n++) points.set(t, empty());
  for (const r of rows) {
    const start = bucketStart(Math.floor(r.id / 1000), agg, from);
    let p = points.get(start);
    if (!p) {
      p = empty();
      points.set(start, p);
    }
    add(p, r);
  }
  return [...points.entries()].sort((a, b) => a[0] - b[0]).map(([t, p]) => ({ timestamp: new Date(t).toISOString(), ...p }));
}
