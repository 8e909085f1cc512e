/** Figures the benchmarks print. */

/** The q-quantile (0..1) of some numbers: the value at that rank once sorted (undefined for none). */
export const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
