import { setFlagsFromString } from "node:v8";

/**
 * How far the daemon's JS heap may grow over its live data before the next full collection. V8's own
 * factor goes up to 4×: on a 200 MB PDF set the heap swung between 90 and 240 MB (ingestion makes
 * garbage fast: text from the workers, rows, terms) for about 100 MB of live data. At 25 % it stays
 * near 100 MB; the main thread's CPU on that set went from 63 s to 71–76 s (of about 460 s in all) and
 * throughput did not change measurably (bench/ingest).
 */
export const HEAP_GROWING_PERCENT = 25;

/** Applies HEAP_GROWING_PERCENT unless node was given its own (flags or NODE_OPTIONS); returns the flag set. */
export function tuneHeap(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): string | undefined {
  if ([...execArgv, nodeOptions].some((a) => a.includes("--heap-growing-percent"))) return undefined;
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  setFlagsFromString(flag);
  return flag;
}
