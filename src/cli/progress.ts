import type { Context } from "./context.js";
import type { Out } from "./io.js";
import { styles } from "./output.js";

/** A running progress indicator: call tick/update as work is done, then done(). */
export interface Progress {
  /** `n` more items done (default 1). */
  tick(n?: number): void;
  /** Absolute position; `total` may be learned late (e.g. after a folder scan). */
  update(done: number, total?: number): void;
  /** A note shown above the bar on a TTY, as a plain line when piped (e.g. a failed file). */
  log(msg: string): void;
  /** Finish: clears the bar and prints `msg` (if any) as a final status line. */
  done(msg?: string): void;
}

export interface ProgressOptions {
  /** What is counted, e.g. "files", "bytes", "resources". */
  label: string;
  total?: number;
  /** Counts are bytes: shown as KiB/MiB and rates per second in bytes. */
  bytes?: boolean;
  quiet?: boolean;
  /** Minimum ms between TTY redraws (default 100) and between piped lines (default 2000). */
  ttyIntervalMs?: number;
  pipeIntervalMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const BAR = 24;

/** Human units for counts or bytes. */
export function formatCount(n: number, bytes = false): string {
  if (!bytes) return String(Math.round(n));
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** Seconds as `1m05s` / `42s` / `1h02m`. */
export function formatDuration(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) return "?";
  const s = Math.round(sec);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** The text of one progress line (without colour): bar on a TTY, plain words otherwise. */
export function progressLine(
  o: { label: string; bytes?: boolean },
  done: number,
  total: number | undefined,
  elapsedSec: number,
  bar: boolean,
): string {
  const rate = elapsedSec > 0 ? done / elapsedSec : 0;
  const fmt = (n: number) => formatCount(n, o.bytes);
  const rateText = `${fmt(rate)}${o.bytes ? "" : ` ${o.label}`}/s`;
  if (total && total > 0) {
    const frac = Math.min(1, done / total);
    const eta = rate > 0 ? formatDuration((total - done) / rate) : "?";
    const pct = `${Math.floor(frac * 100)}%`.padStart(4);
    const counts = `${fmt(done)}/${fmt(total)}${o.bytes ? "" : ` ${o.label}`}`;
    if (!bar) return `${o.label}: ${counts} (${pct.trim()}), ${rateText}, eta ${eta}`;
    const filled = Math.round(frac * BAR);
    return `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${pct} ${counts}  ${rateText}  eta ${eta}`;
  }
  const counts = `${fmt(done)}${o.bytes ? "" : ` ${o.label}`}`;
  return bar ? `${counts}  ${rateText}  ${formatDuration(elapsedSec)}` : `${o.label}: ${counts}, ${rateText}`;
}

/**
 * A progress indicator on stderr: a redrawn bar with counts, rate and ETA on a TTY; an occasional
 * plain line when piped; nothing with --quiet. Never writes to stdout, so data output stays clean.
 */
export function progress(ctx: Context, opts: ProgressOptions): Progress {
  const io = ctx.io;
  const err: Out = io.stderr;
  const quiet = opts.quiet ?? ctx.globals.quiet ?? false;
  // `kbox config set progress never` keeps a terminal free of redraws (plain lines as when piped).
  const tty = Boolean(err.isTTY) && !ctx.env.dumbTerminal && ctx.config.settings.progress !== "never";
  const now = opts.now ?? Date.now;
  const start = now();
  const st = styles(io, err);
  let done = 0;
  let total = opts.total;
  let last = 0;
  let drawn = false;
  let finished = false;
  const ttyEvery = opts.ttyIntervalMs ?? 100;
  const pipeEvery = opts.pipeIntervalMs ?? 2000;

  const clear = () => {
    if (drawn) err.write("\r\x1b[2K");
    drawn = false;
  };
  const draw = (force = false) => {
    if (quiet || finished) return;
    const t = now();
    if (!force && t - last < (tty ? ttyEvery : pipeEvery)) return;
    last = t;
    const line = progressLine(opts, done, total, (t - start) / 1000, tty);
    if (tty) {
      const width = Math.max(20, (err.columns ?? 80) - 1);
      err.write(`\r\x1b[2K${st.cyan(line.slice(0, width))}`);
      drawn = true;
    } else err.write(`${line}\n`);
  };
  // Piped output starts quiet: the first plain line comes only after pipeIntervalMs.
  if (!tty) last = start;
  else draw(true);

  return {
    tick(n = 1) {
      done += n;
      draw();
    },
    update(d, t) {
      done = d;
      if (t !== undefined) total = t;
      draw();
    },
    log(msg) {
      if (quiet) return;
      clear();
      err.write(`${msg}\n`);
      if (tty) draw(true);
    },
    done(msg) {
      if (finished) return;
      clear();
      finished = true;
      if (msg && !quiet) err.write(`${msg}\n`);
    },
  };
}
