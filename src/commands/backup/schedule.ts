import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { intFlag } from "../../cli/options.js";
import { printFields, printJson } from "../../cli/output.js";
import { ApiError } from "../../client/errors.js";
import * as bk from "../../client/routes/backups.js";
import { formatInterval, parseInterval } from "./shared.js";

export interface BackupScheduleOptions extends GlobalOptions {
  every?: string;
  keep?: string;
  off?: boolean;
}

/** Set, show or remove the periodic backup of a knowledge box. */
export async function runBackupSchedule(ctx: Context, opts: BackupScheduleOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  if (opts.off) {
    await client.call(bk.deleteSchedule, { params: { kbid } });
    return ctx.status("periodic backups stopped (existing backups are kept)", opts);
  }
  let res: bk.Schedule;
  if (opts.every || opts.keep) {
    if (!opts.every) throw usageError("--every is required with --keep", "e.g. --every 24h --keep 7");
    const keep = intFlag("--keep", opts.keep ?? "7", 1)!;
    res = await client.call(bk.setSchedule, { params: { kbid }, body: { interval_seconds: parseInterval(opts.every), keep } });
  } else {
    try {
      res = await client.call(bk.getSchedule, { params: { kbid } });
    } catch (e) {
      // No schedule is an answer, not a failure: say so (stdout gets `null` with --json).
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      if (opts.json) return void ctx.io.stdout.write("null\n");
      return ctx.status("no backup schedule for this knowledge box; set one with `kbox backup schedule --every 24h --keep 7`");
    }
  }
  if (opts.json) return printJson(ctx.io, res);
  printFields(ctx.io, [
    ["every", formatInterval(res.interval_seconds)],
    ["keep", res.keep],
    ["next run", res.next_run],
    ["last backup", res.last_backup_id ?? ""],
    ["last error", res.last_error ?? ""],
  ]);
}

export function backupScheduleCommand(ctx: Context): Command {
  return new Command("schedule")
    .description("Back a knowledge box up periodically, keeping the last N scheduled backups")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--every <interval>", "interval: 30m, 24h, 7d ...")
    .option("--keep <n>", "scheduled backups to keep (default 7)")
    .option("--off", "stop periodic backups")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox backup schedule --kb notes --every 24h --keep 7\n  kbox backup schedule --kb notes\n  kbox backup schedule --kb notes --off",
    )
    .action(async (_o, cmd: Command) => runBackupSchedule(ctx, ctx.opts<BackupScheduleOptions>(cmd)));
}
