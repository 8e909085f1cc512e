import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import { formatCount } from "../../cli/progress.js";
import * as bk from "../../client/routes/backups.js";
import { ACCOUNT } from "./shared.js";

/** List backups, newest first. */
export async function runBackupList(ctx: Context, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  const res = await client.call(bk.listBackups, { params: ACCOUNT });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (b) => b.id },
      { header: "kb", get: (b) => b.kb_data.slug },
      { header: "started", get: (b) => b.started_at },
      { header: "status", get: (b) => (b.scheduled ? `${b.status} (scheduled)` : b.status) },
      { header: "size", get: (b) => formatCount(b.size, true) },
      { header: "paragraphs", get: (b) => String(b.paragraphs) },
    ],
    res,
  );
}

export function backupListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List backups, newest first")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox backup list\n  kbox backup list --json | jq -r '.[].id'")
    .action(async (_o, cmd: Command) => runBackupList(ctx, ctx.opts(cmd)));
}
