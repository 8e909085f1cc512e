import { createReadStream, existsSync, statSync, watch } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";

export interface LogsOptions {
  lines: string;
  follow?: boolean;
}

/** Print the last lines of the daemon log, and follow it with -f. */
export async function runLogs(ctx: Context, opts: LogsOptions, signal?: AbortSignal): Promise<void> {
  const file = join(ctx.paths.logs, "kboxd.log");
  if (!existsSync(file)) throw new CliError(`no log yet at ${file}`, EXIT.failure, "start the daemon with `kbox daemon start`");
  const n = Number(opts.lines);
  const text = await new Promise<string>((res, rej) => {
    const chunks: Buffer[] = [];
    createReadStream(file)
      .on("data", (c) => chunks.push(c as Buffer))
      .on("end", () => res(Buffer.concat(chunks).toString("utf8")))
      .on("error", rej);
  });
  const lines = text.split("\n").filter(Boolean);
  for (const l of lines.slice(-n)) ctx.io.stdout.write(`${l}\n`);
  if (!opts.follow) return;
  let pos = statSync(file).size;
  await new Promise<void>((resolve) => {
    const w = watch(file, () => {
      const size = statSync(file).size;
      if (size <= pos) return;
      createReadStream(file, { start: pos, end: size - 1 }).on("data", (c) => ctx.io.stdout.write(c.toString()));
      pos = size;
    });
    signal?.addEventListener("abort", () => {
      w.close();
      resolve();
    });
  });
}

export function logsCommand(ctx: Context): Command {
  return new Command("logs")
    .description("Show the daemon log")
    .option("-n, --lines <n>", "how many lines", "50")
    .option("-f, --follow", "keep printing new lines")
    .addHelpText("after", "\nExamples:\n  kbox daemon logs -n 100\n  kbox daemon logs -f")
    .action(async (_o, cmd: Command) => runLogs(ctx, ctx.opts<LogsOptions>(cmd)));
}
