import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as api from "../../client/routes/nua-clients.js";

export async function runNuaClientDelete(ctx: Context, id: string, o: { yes?: boolean; quiet?: boolean }): Promise<void> {
  await confirm(ctx, o, `delete understanding client ${id} (its key, requests and internal knowledge box)`);
  const account = await ctx.account(o);
  await (await ctx.client(o)).call(api.deleteNuaClient, { params: { account, client_id: id } });
  ctx.status(`deleted understanding client ${id}`, o);
}

export function nuaClientDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete an understanding client: its key stops working, its requests and internal box go")
    .argument("<client_id>", "client id")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox nua client delete 1f0c... --yes")
    .action(async (id: string, _o, c: Command) => runNuaClientDelete(ctx, id, ctx.opts(c)));
}
