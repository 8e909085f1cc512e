import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** What an event is about, beside its message: ids, counts, durations (JSON values). */
export type LogFields = Record<string, unknown>;

/**
 * The daemon log. Calling it logs at level info; `.debug`, `.warn` and `.error` at theirs. One event
 * is one line of `kboxd.log`: `{"time","level","msg",...fields}` (JSON lines, what `kbox daemon logs`
 * reads); in the foreground the same events go to stderr as text.
 */
export interface Log {
  (msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Log to `kboxd.log` under the logs dir (events at `level` and above), and to stderr when in the
 * foreground. The file stays open (one write per event, no open and close); at `rotateBytes` it
 * becomes `kboxd.log.1` and a new one starts, so the log never holds more than twice that.
 */
export function createLogger(logsDir: string, toStderr: boolean, level: LogLevel = "info", rotateBytes = 8 * 2 ** 20): Log {
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const file = join(logsDir, "kboxd.log");
  let fd = -1;
  let size = 0;
  const write = (line: string) => {
    const bytes = Buffer.from(line);
    if (fd >= 0 && size + bytes.length > rotateBytes && size > 0) {
      closeSync(fd);
      fd = -1;
      renameSync(file, `${file}.1`);
    }
    if (fd < 0) {
      fd = openSync(file, "a", 0o600);
      size = fstatSync(fd).size;
    }
    size += writeSync(fd, bytes);
  };
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    const time = new Date().toISOString();
    const line = `${JSON.stringify({ time, level: lvl, msg, ...fields })}\n`;
    try {
      write(line);
    } catch {
      /* a full disk must not take the daemon down; the next event opens the file again */
      try {
        if (fd >= 0) closeSync(fd);
      } catch {
        /* already closed */
      }
      fd = -1;
    }
    if (toStderr) process.stderr.write(`${formatText({ time, level: lvl, msg, ...fields })}\n`);
  };
  return Object.assign((msg: string, fields?: LogFields) => emit("info", msg, fields), {
    debug: (msg: string, fields?: LogFields) => emit("debug", msg, fields),
    info: (msg: string, fields?: LogFields) => emit("info", msg, fields),
    warn: (msg: string, fields?: LogFields) => emit("warn", msg, fields),
    error: (msg: string, fields?: LogFields) => emit("error", msg, fields),
  });
}

/** A log that drops everything (services built without a daemon around them). */
export const silentLog: Log = Object.assign(() => undefined, {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

/** `time LEVEL msg key=value…`, the foreground's text form of an event. */
function formatText(e: { time: string; level: string; msg: string } & LogFields): string {
  const { time, level, msg, ...rest } = e;
  const extra = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(" ");
  return `${time} ${level.toUpperCase().padEnd(5)} ${msg}${extra ? ` ${extra}` : ""}`;
}
