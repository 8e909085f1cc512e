import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/nua-clients.js";
import { CLIENT_COLUMNS } from "./client-list.js";

export async function runNuaClientShow(ctx: Context, id: string, o: { json?: boolean }): Promise<void> {
  const account = await ctx.account(o);
  const res = await (await ctx.client(o)).call(api.getNuaClient, { params: { account, client_id: id } });
  if (o.json) return printJson(ctx.io, res);
  printTable(ctx.io, CLIENT_COLUMNS, [res]);
}

export function nuaClientShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show an understanding client and its token usage")
    .argument("<client_id>", "client id")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox nua client show 1f0c... --json")
    .action(async (id: string, _o, c: Command) => runNuaClientShow(ctx, id, ctx.opts(c)));
}
