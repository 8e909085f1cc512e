import type { IO } from "./io.js";
import { styles } from "./output.js";

const TICKS = "▁▂▃▄▅▆▇█";

/** A one-line sparkline of values (scaled to their max, or to `max` when given). */
export function sparkline(values: number[], max = Math.max(0, ...values)): string {
  return values.map((v) => (max > 0 ? TICKS[Math.min(7, Math.round((v / max) * 7))] : TICKS[0])).join("");
}

/** A horizontal bar of `width` cells for value/max (eighths for the last cell). */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || value <= 0) return "";
  const eighths = Math.round((value / max) * width * 8);
  const full = Math.floor(eighths / 8);
  const rest = eighths % 8;
  return "█".repeat(full) + (rest ? "▏▎▍▌▋▊▉"[8 - rest - 1] : "");
}

export interface Series {
  name: string;
  values: number[];
  /** Values are shares of this (quality scores: 5); counts scale to their own max. */
  max?: number;
}

/**
 * Series over labelled buckets as a chart on a TTY: a sparkline per series with its total or
 * average, then a bar per bucket of the first series. Colour only when the terminal allows it.
 */
export function drawChart(io: IO, labels: string[], series: Series[], opts: { average?: boolean } = {}): void {
  const st = styles(io);
  const width = Math.max(10, Math.min(60, (io.stdout.columns ?? 80) - 40));
  const nameWidth = Math.max(...series.map((s) => s.name.length));
  for (const s of series) {
    const total = s.values.reduce((a, b) => a + b, 0);
    const summary = opts.average
      ? `avg ${(s.values.filter((v) => v > 0).reduce((a, b) => a + b, 0) / Math.max(1, s.values.filter((v) => v > 0).length)).toFixed(2)}`
      : `total ${total}`;
    io.stdout.write(`${st.bold(s.name.padEnd(nameWidth))}  ${st.cyan(sparkline(s.values, s.max))}  ${st.dim(summary)}\n`);
  }
  io.stdout.write("\n");
  const labelWidth = Math.max(...labels.map((l) => l.length));
  for (const s of series) {
    const max = s.max ?? Math.max(0, ...s.values);
    io.stdout.write(`${st.bold(s.name)}\n`);
    labels.forEach((l, i) => {
      const v = s.values[i];
      const shown = Number.isInteger(v) ? String(v) : v.toFixed(2);
      io.stdout.write(`  ${l.padEnd(labelWidth)}  ${st.green(bar(v, max, width).padEnd(width))} ${shown}\n`);
    });
  }
}
