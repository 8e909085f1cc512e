import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, watch } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { styles } from "../../cli/output.js";

export interface LogsOptions {
  lines: string;
  follow?: boolean;
  level?: string;
  json?: boolean;
}

const LEVELS = ["debug", "info", "warn", "error"] as const;
type Level = (typeof LEVELS)[number];
const ALIASES: Record<string, Level> = { warning: "warn", err: "error" };

/** One event of kboxd.log: `{"time","level","msg",...fields}` (a line of an older, plain-text log reads as info). */
export interface LogEvent {
  time: string;
  level: Level;
  msg: string;
  [field: string]: unknown;
}

export function parseLogLine(line: string): LogEvent | undefined {
  if (!line.trim()) return undefined;
  if (line.startsWith("{")) {
    try {
      const e = JSON.parse(line) as LogEvent;
      if (typeof e.msg === "string") return e;
    } catch {
      /* not JSON after all: shown as text */
    }
  }
  const m = /^(\S+)\s+(.*)$/.exec(line);
  return { time: m?.[1] ?? "", level: "info", msg: m?.[2] ?? line };
}

function levelFlag(raw: string | undefined): Level {
  if (!raw) return "debug"; // everything the daemon wrote (it keeps KBOX_LOG_LEVEL and above)
  const l = raw.toLowerCase();
  const level = ALIASES[l] ?? (LEVELS as readonly string[]).find((x) => x === l);
  if (!level) throw usageError(`--level must be one of ${LEVELS.join(", ")}, not ${JSON.stringify(raw)}`);
  return level as Level;
}

/** Print the last events of the daemon log (at --level and above), and follow it with -f. */
export async function runLogs(ctx: Context, opts: LogsOptions, signal?: AbortSignal): Promise<void> {
  const n = Number(opts.lines);
  if (!Number.isInteger(n) || n < 0) throw usageError(`--lines must be a whole number, not ${JSON.stringify(opts.lines)}`);
  const least = LEVELS.indexOf(levelFlag(opts.level));
  const file = join(ctx.paths.logs, "kboxd.log");
  if (!existsSync(file)) throw new CliError(`no log yet at ${file}`, EXIT.failure, "start the daemon with `kbox daemon start`");
  const st = styles(ctx.io);
  /** The events of these lines at --level and above. */
  const shown = (lines: string[]) =>
    lines.map(parseLogLine).filter((e): e is LogEvent => !!e && LEVELS.indexOf(e.level) >= least);
  const print = (e: LogEvent) =>
    ctx.io.stdout.write(`${opts.json ? JSON.stringify(e) : formatEvent(e, ctx.io.stdout.isTTY, st)}\n`);

  let pos = 0;
  let partial = "";
  /** Events appended since the last read (a line still being written waits for its newline). */
  const readNew = (): LogEvent[] => {
    const size = statSync(file).size;
    if (size < pos) pos = 0; // truncated or replaced: start over
    if (size === pos) return [];
    const buf = Buffer.alloc(size - pos);
    const fd = openSync(file, "r");
    try {
      readSync(fd, buf, 0, buf.length, pos);
    } finally {
      closeSync(fd);
    }
    pos = size;
    const lines = (partial + buf.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    return shown(lines);
  };
  // The events before the last rotation (kboxd.log.1) come first.
  const rotated = `${file}.1`;
  const past = [...(existsSync(rotated) ? shown(readFileSync(rotated, "utf8").split("\n")) : []), ...readNew()];
  for (const e of n ? past.slice(-n) : past) print(e);
  if (!opts.follow) return;
  await new Promise<void>((resolve) => {
    const w = watch(file, () => {
      for (const e of readNew()) print(e);
    });
    // A watcher can miss the write that replaces the file; a slow poll catches up.
    const poll = setInterval(() => {
      for (const e of readNew()) print(e);
    }, 1000);
    signal?.addEventListener("abort", () => {
      w.close();
      clearInterval(poll);
      resolve();
    });
  });
}

/** `time LEVEL message key=value…`; on a terminal the time of day and a coloured level. */
export function formatEvent(e: LogEvent, tty: boolean | undefined, st: ReturnType<typeof styles>): string {
  const { time, level, msg, ...fields } = e;
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(" ");
  const lvl = level.toUpperCase().padEnd(5);
  if (!tty) return `${time}\t${level.toUpperCase()}\t${msg}${extra ? `\t${extra}` : ""}`;
  const coloured = level === "error" ? st.red(lvl) : level === "warn" ? st.yellow(lvl) : level === "debug" ? st.dim(lvl) : lvl;
  return `${time.slice(11, 19)} ${coloured} ${msg}${extra ? ` ${st.dim(extra)}` : ""}`;
}

export function logsCommand(ctx: Context): Command {
  return new Command("logs")
    .description("Show the daemon log: one event a line (what it did and what failed), at --level and above")
    .option("-n, --lines <n>", "how many events (0: all)", "50")
    .option("-f, --follow", "keep printing new events until Ctrl+C")
    .option("--level <level>", "the least level shown: debug, info, warn, error (default: all the log holds)")
    .option("--json", "one JSON object a line, as kboxd.log stores them: time, level, msg and the event's fields")
    .addHelpText(
      "after",
      "\nThe daemon writes events at KBOX_LOG_LEVEL (default info) and above; debug adds every request.\n\nExamples:\n  kbox daemon logs -n 100\n  kbox daemon logs --level warn -f\n  kbox daemon logs --json | jq -r 'select(.level==\"error\") | .msg'",
    )
    .action(async (_o, cmd: Command) => runLogs(ctx, ctx.opts<LogsOptions>(cmd)));
}
