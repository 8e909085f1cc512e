import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as sync from "../../client/routes/sync.js";
import { followConfig, followLogs, formatLog } from "./follow.js";
import { intFlag, levelFlag, resolveConfig } from "./shared.js";

export interface LogsOptions extends GlobalOptions {
  job?: string;
  level?: string;
  limit: string;
  follow?: boolean;
}

/** Log entries of a job (the configuration's latest job unless --job), oldest first. */
export async function runSyncLogs(ctx: Context, ref: string, opts: LogsOptions): Promise<void> {
  const limit = intFlag("--limit", opts.limit, 1, 500) as number;
  const level = levelFlag(opts.level);
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const c = await resolveConfig(client, kbid, ref);
  const print = (e: sync.LogEntry) => ctx.io.stdout.write(`${opts.json ? JSON.stringify(e) : formatLog(ctx, e)}\n`);
  // Following the configuration: its latest job, then every job after it, live (a given --job: until it ends).
  if (opts.follow && !opts.job) return followConfig(client, kbid, c.id, { level, print });
  const jobId =
    opts.job ?? (await client.call(sync.listJobs, { params: { kbid, config_id: c.id }, query: { limit: 1 } })).items[0]?.id;
  if (!jobId) throw new CliError(`${c.name} has no jobs yet`, EXIT.failure, `run one with \`kbox sync run ${c.name}\``);
  if (opts.follow) {
    await followLogs(client, kbid, jobId, { level, print });
    return;
  }
  const res = await client.call(sync.jobLogs, {
    params: { kbid, job_id: jobId },
    query: { limit, ...(level ? { level } : {}) },
  });
  if (opts.json) return printJson(ctx.io, res);
  for (const e of [...res.items].reverse()) ctx.io.stdout.write(`${formatLog(ctx, e)}\n`);
}

export function syncLogsCommand(ctx: Context): Command {
  return new Command("logs")
    .description("Show a sync job's log (the latest job of the configuration by default), or follow it live")
    .argument("<config>", "configuration id or name")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--job <id>", "a specific job")
    .option("--level <level>", "minimum level: DEBUG, INFO, WARNING, ERROR")
    .option("--limit <n>", "how many entries (1-500)", "50")
    .option("-f, --follow", "print entries as they come: this job and every later one, until Ctrl+C (with --job: until it ends)")
    .option("--json", "print the wire response (NDJSON entries with --follow)")
    .addHelpText("after", "\nExamples:\n  kbox sync logs notes --level WARNING\n  kbox sync logs notes --follow")
    .action(async (ref: string, _o, cmd: Command) => runSyncLogs(ctx, ref, ctx.opts<LogsOptions>(cmd)));
}
