import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export type Log = (msg: string) => void;

/** Log lines to `kboxd.log` under the logs dir, and to stderr when in the foreground. */
export function createLogger(logsDir: string, toStderr: boolean): Log {
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const file = join(logsDir, "kboxd.log");
  return (msg: string) => {
    const line = `${new Date().toISOString()} ${msg}\n`;
    try {
      appendFileSync(file, line, { mode: 0o600 });
    } catch {
      /* a full disk must not take the daemon down */
    }
    if (toStderr) process.stderr.write(line);
  };
}
