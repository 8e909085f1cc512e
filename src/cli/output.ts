import { noColor } from "./env.js";
import type { IO, Out } from "./io.js";

/** ANSI styles, switched off when the stream is not a TTY or NO_COLOR is set. */
export function styles(io: IO, out: Out = io.stdout) {
  const on = Boolean(out.isTTY) && !noColor(io.env);
  const wrap = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    enabled: on,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    mark: wrap(7, 27),
  };
}

/** `--json`: the wire response verbatim; indented on a TTY, one line when piped. */
export function printJson(io: IO, value: unknown): void {
  io.stdout.write(`${io.stdout.isTTY ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
}

/** One NDJSON line, for streaming commands. */
export function printNdjson(io: IO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}

export interface Column<T> {
  header: string;
  get: (row: T) => string | number | boolean | undefined | null;
  /** Right-align (numbers). */
  right?: boolean;
}

const visibleLength = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").length;

/** Rows as an aligned table on a TTY, or as header-less TSV when piped. */
export function printTable<T>(io: IO, columns: Column<T>[], rows: T[]): void {
  const cells = rows.map((r) => columns.map((c) => String(c.get(r) ?? "")));
  if (!io.stdout.isTTY) {
    for (const row of cells) io.stdout.write(`${row.map((c) => c.replace(/[\t\n]/g, " ")).join("\t")}\n`);
    return;
  }
  const st = styles(io);
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => visibleLength(r[i]))));
  const pad = (s: string, i: number) => {
    const fill = " ".repeat(Math.max(0, widths[i] - visibleLength(s)));
    return columns[i].right ? fill + s : s + fill;
  };
  io.stdout.write(`${st.bold(columns.map((c, i) => pad(c.header.toUpperCase(), i)).join("  ")).trimEnd()}\n`);
  for (const row of cells) io.stdout.write(`${row.map(pad).join("  ").trimEnd()}\n`);
}

/** Key/value detail view on a TTY, `key\tvalue` lines when piped. */
export function printFields(io: IO, entries: [string, unknown][]): void {
  const st = styles(io);
  const width = Math.max(...entries.map(([k]) => k.length));
  for (const [k, v] of entries) {
    if (v === undefined || v === null || v === "") continue;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    if (io.stdout.isTTY) io.stdout.write(`${st.bold(k.padEnd(width))}  ${text}\n`);
    else io.stdout.write(`${k}\t${text}\n`);
  }
}

/** A status line on stderr (suppressed by --quiet). */
export function status(io: IO, quiet: boolean | undefined, msg: string): void {
  if (!quiet) io.stderr.write(`${msg}\n`);
}
