import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { EXIT } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as sync from "../../client/routes/sync.js";
import { waitForJob } from "./follow.js";
import { resolveConfig } from "./shared.js";

export async function runSyncRun(
  ctx: Context,
  ref: string,
  opts: GlobalOptions & { full?: boolean; wait?: boolean },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const c = await resolveConfig(client, kbid, ref);
  let job = await client.call(sync.triggerSync, { params: { kbid, config_id: c.id }, body: { full_sync: Boolean(opts.full) } });
  if (opts.wait) {
    job = await waitForJob(ctx, client, kbid, job.id, opts.quiet || opts.json);
    const s = job.stats;
    ctx.status(
      `sync ${job.status}: ${s.added} added, ${s.updated} updated, ${s.moved} moved, ${s.deleted} deleted, ${s.unchanged} unchanged, ${s.failed} failed`,
      opts,
    );
    if (job.status === "failed") ctx.exitCode = EXIT.failure;
    else if (s.failed > 0) ctx.exitCode = EXIT.partial;
  }
  if (opts.json) return printJson(ctx.io, job);
  if (!opts.wait) ctx.io.stdout.write(`${job.id}\n`);
}

export function syncRunCommand(ctx: Context): Command {
  return new Command("run")
    .description("Run a sync now (409 if one is already pending or running)")
    .argument("<config>", "configuration id or name")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--full", "compare every file's content, ignoring what is known")
    .option("--wait", "wait for the job, with progress; exit 5 when some items failed")
    .option("--json", "print the job")
    .addHelpText("after", "\nExamples:\n  kbox sync run notes --wait\n  kbox sync run notes --full --json")
    .action(async (ref: string, _o, cmd: Command) => runSyncRun(ctx, ref, ctx.opts(cmd)));
}
