import { setFlagsFromString } from "node:v8";

/**
 * How far the daemon's JS heap may grow over its live data before the next full collection. V8's own
 * factor goes up to 4×: on a 200 MB PDF set the heap swung between 90 and 240 MB (ingestion makes
 * garbage fast: text from the workers, rows, terms) for about 100 MB of live data. At 25 % it stayed
 * near 100 MB, but adding 10,000 notes then ran a full collection every 0.4 s (most of the daemon's
 * thread's GC time: bench/add.ts); at 50 % the daemon took 15–16.5 s of CPU instead of 18 and the
 * peak stayed 430–455 MB; at 100 % no less CPU and 480 MB.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies HEAP_GROWING_PERCENT unless node was given its own (flags or NODE_OPTIONS); returns the flag set. */
export function tuneHeap(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): string | undefined {
  if ([...execArgv, nodeOptions].some((a) => a.includes("--heap-growing-percent"))) return undefined;
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  setFlagsFromString(flag);
  return flag;
}
