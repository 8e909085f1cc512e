import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, tuneHeap } from "../../../daemon/lifecycle/heap.js";

// Peak heap of a workload that keeps ~20 MB live and promotes garbage to the old generation.
const workload = (tune: boolean) => `
${tune ? `const { tuneHeap } = await import(${JSON.stringify(new URL("../../../daemon/lifecycle/heap.ts", import.meta.url).pathname)}); tuneHeap();` : ""}
const live = Array.from({ length: 2e5 }, (_, i) => ({ s: "live " + i }));
let peak = 0;
for (let r = 0; r < 30; r++) {
  live[r] = Array.from({ length: 9e4 }, (_, i) => ({ s: "old " + i + " " + r }));
  if (r > 3) live[r - 3] = null;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
console.log(peak);`;
const peakOf = (tune: boolean) =>
  Number(
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", workload(tune)], { encoding: "utf8" }).trim(),
  );

describe("daemon heap tuning", () => {
  it("keeps the heap near its live data between full collections", () => {
    const untuned = peakOf(false);
    const tuned = peakOf(true);
    expect(tuned).toBeLessThan(untuned * 0.8);
  });

  it("leaves a heap growth the user chose to node", () => {
    expect(tuneHeap(["--heap-growing-percent=60"], "")).toBeUndefined();
    expect(tuneHeap([], "--max-old-space-size=4096 --heap-growing-percent=60")).toBeUndefined();
    expect(tuneHeap([], "")).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });
});
