/** Figures the benchmarks print. */

/** The q-quantile (0..1) of some numbers: the value at that rank once sorted (undefined for none). */
export const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** "p50 … ms  p95 … ms" of some latencies in milliseconds. */
export const p50p95 = (xs: number[]): string => `p50 ${quantile(xs, 0.5).toFixed(1)} ms  p95 ${quantile(xs, 0.95).toFixed(1)} ms`;
