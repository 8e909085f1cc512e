import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-clients.js";

/** A new NUA key for the client (printed once); the old one stops working at once. */
export async function runNuaClientKey(ctx: Context, id: string, o: { json?: boolean; quiet?: boolean }): Promise<void> {
  const account = await ctx.account(o);
  const res = await (await ctx.client(o)).call(api.renewNuaKey, { params: { account, client_id: id }, body: {} });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.token}\n`);
  ctx.status(`renewed the key of ${id}; the old one no longer works`, o);
}

export function nuaClientKeyCommand(ctx: Context): Command {
  return new Command("key")
    .description("Renew an understanding client's NUA key (the old key stops working)")
    .argument("<client_id>", "client id")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox nua client key 1f0c... > nua.key")
    .action(async (id: string, _o, c: Command) => runNuaClientKey(ctx, id, ctx.opts(c)));
}
