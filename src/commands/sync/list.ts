import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as sync from "../../client/routes/sync.js";
import { sourceOf } from "./shared.js";

export async function runSyncList(ctx: Context, opts: GlobalOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const configs = await (await ctx.client(opts)).call(sync.listConfigs, { params: { kbid } });
  if (opts.json) return printJson(ctx.io, configs);
  printTable(
    ctx.io,
    [
      { header: "id", get: (c) => c.id },
      { header: "name", get: (c) => c.name },
      { header: "source", get: (c) => sourceOf(c) },
      { header: "every", get: (c) => (c.sync_interval_minutes ? `${c.sync_interval_minutes}m` : "") },
      { header: "last run", get: (c) => c.last_sync_run ?? "never" },
    ],
    configs,
  );
}

export function syncListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List sync configurations")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sync list")
    .action(async (_o, cmd: Command) => runSyncList(ctx, ctx.opts(cmd)));
}
