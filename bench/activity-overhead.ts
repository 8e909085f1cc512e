/**
 * What recording the activity log adds to a request: the same request timed with recording on and
 * off, interleaved (the order alternating, so caches warm both alike), in one daemon whose
 * `settings.activity.record` is flipped between runs. Prints p50s and the overhead of the means.
 */
import { quantile } from "./stats.js";

/** The mean without the slowest tenth (a GC pause or a table commit on a 2-core machine is not the request's). */
function trimmedMean(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b).slice(0, Math.max(1, Math.ceil(xs.length * 0.9)));
  return s.reduce((a, b) => a + b, 0) / s.length;
}

export async function activityOverhead(
  label: string,
  settings: { record: boolean },
  op: () => Promise<unknown>,
  runs: number,
): Promise<number> {
  const on: number[] = [];
  const off: number[] = [];
  const time = async (record: boolean, into: number[]) => {
    settings.record = record;
    const t = performance.now();
    await op();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < 3; i++) await op(); // warm-up
  for (let i = 0; i < runs; i++) {
    if (i % 2) {
      await time(true, on);
      await time(false, off);
    } else {
      await time(false, off);
      await time(true, on);
    }
  }
  settings.record = true;
  const overhead = (trimmedMean(on) / trimmedMean(off) - 1) * 100;
  console.log(
    `activity recording overhead, ${label}: ${overhead >= 0 ? "+" : ""}${overhead.toFixed(1)} % (p50 ${quantile(on, 0.5).toFixed(2)} ms recorded, ${quantile(off, 0.5).toFixed(2)} ms not; ${runs} pairs; target <= 2 %)`,
  );
  return overhead;
}
