import { Readable } from "node:stream";
import type { EnvRecord } from "./env.js";

/** A writable the CLI prints to; `isTTY` decides tables and colour versus plain TSV. */
export interface Out {
  write(s: string): boolean | void;
  isTTY?: boolean;
  columns?: number;
}

/** Everything a command touches of the outside world, so tests run commands in-process. */
export interface IO {
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The raw environment; the context parses it once (src/cli/env.ts). */
  env: EnvRecord;
  cwd: string;
}

/** This process's streams, environment and working directory: the only place the CLI reads process.env. */
export function processIO(): IO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** Buffers standing in for stdout/stderr in tests. */
export function bufferIO(opts: { tty?: boolean; env?: EnvRecord; cwd?: string; stdin?: string; columns?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    stdout: { write: (s: string) => out.push(s) > 0, isTTY: opts.tty ?? false, columns: opts.columns ?? 100 },
    stderr: { write: (s: string) => err.push(s) > 0, isTTY: opts.tty ?? false, columns: opts.columns ?? 100 },
    stdin: Object.assign(Readable.from(opts.stdin !== undefined ? [opts.stdin] : []), { isTTY: opts.tty ?? false }),
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
  };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}
