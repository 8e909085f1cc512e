import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as accounts from "../../client/routes/accounts.js";
import { saScope } from "./shared.js";

export async function runSaDelete(
  ctx: Context,
  id: string,
  opts: { yes?: boolean; kb?: string; quiet?: boolean },
): Promise<void> {
  const scope = await saScope(ctx, opts);
  await confirm(ctx, opts, `delete service account ${id} and its keys`);
  await (await ctx.client(opts)).call(accounts.deleteServiceAccount, { params: { ...scope, sa_id: id } });
  ctx.status(`deleted service account ${id}`, opts);
}

export function saDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a service account; its keys stop working at once")
    .argument("<id>", "service account id")
    .option("--kb <kb>", "the knowledge box it belongs to")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox sa delete 5b0c… --yes")
    .action(async (id: string, _o, cmd: Command) => runSaDelete(ctx, id, ctx.opts(cmd)));
}
