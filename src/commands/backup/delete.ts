import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as bk from "../../client/routes/backups.js";
import { ACCOUNT } from "./shared.js";

/** Delete a backup and its archive. */
export async function runBackupDelete(ctx: Context, id: string, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  await confirm(ctx, opts, `delete backup ${id}`);
  await client.call(bk.deleteBackup, { params: { ...ACCOUNT, backup_id: id } });
  ctx.status(`deleted backup ${id}`, opts);
}

export function backupDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a backup and its archive")
    .argument("<id>", "backup id")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox backup delete 3f2a... --yes")
    .action(async (id: string, _o, cmd: Command) => runBackupDelete(ctx, id, ctx.opts(cmd)));
}
