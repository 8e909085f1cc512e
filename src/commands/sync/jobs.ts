import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as sync from "../../client/routes/sync.js";
import { intFlag, resolveConfig } from "./shared.js";

export async function runSyncJobs(
  ctx: Context,
  ref: string,
  opts: GlobalOptions & { limit: string; cursor?: string },
): Promise<void> {
  const limit = intFlag("--limit", opts.limit, 1, 100) as number;
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const c = await resolveConfig(client, kbid, ref);
  const res = await client.call(sync.listJobs, { params: { kbid, config_id: c.id }, query: { limit, cursor: opts.cursor } });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (j) => j.id },
      { header: "status", get: (j) => j.status },
      { header: "trigger", get: (j) => j.trigger },
      { header: "created", get: (j) => j.created_at },
      { header: "added", get: (j) => j.stats.added, right: true },
      { header: "updated", get: (j) => j.stats.updated, right: true },
      { header: "moved", get: (j) => j.stats.moved, right: true },
      { header: "deleted", get: (j) => j.stats.deleted, right: true },
      { header: "failed", get: (j) => j.stats.failed, right: true },
    ],
    res.items,
  );
  if (res.next_cursor) ctx.status(`more: --cursor ${res.next_cursor}`, opts);
}

export function syncJobsCommand(ctx: Context): Command {
  return new Command("jobs")
    .description("List a configuration's sync jobs, newest first")
    .argument("<config>", "configuration id or name")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--limit <n>", "how many (1-100)", "20")
    .option("--cursor <cursor>", "continue after this cursor")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sync jobs notes --limit 5")
    .action(async (ref: string, _o, cmd: Command) => runSyncJobs(ctx, ref, ctx.opts(cmd)));
}
