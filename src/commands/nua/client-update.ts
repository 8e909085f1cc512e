import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { intFlag } from "../../cli/options.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-clients.js";

type Opts = { json?: boolean; quiet?: boolean; title?: string; contact?: string; tokensLimit?: string; noLimit?: boolean };

export async function runNuaClientUpdate(ctx: Context, id: string, o: Opts): Promise<void> {
  const body = {
    title: o.title,
    contact: o.contact,
    tokens_limit: o.noLimit ? null : intFlag("--tokens-limit", o.tokensLimit, 0),
  };
  if (Object.values(body).every((v) => v === undefined))
    throw usageError("nothing to change: pass --title, --contact, --tokens-limit or --no-limit");
  const account = await ctx.account(o);
  const res = await (await ctx.client(o)).call(api.updateNuaClient, { params: { account, client_id: id }, body });
  if (o.json) return printJson(ctx.io, res);
  ctx.status(`updated understanding client ${id}`, o);
}

export function nuaClientUpdateCommand(ctx: Context): Command {
  return new Command("update")
    .description("Change an understanding client's title, contact or tokens limit")
    .argument("<client_id>", "client id")
    .option("--title <title>", "new title")
    .option("--contact <email>", "new contact")
    .option("--tokens-limit <n>", "new tokens limit")
    .option("--no-limit", "remove the tokens limit")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox nua client update 1f0c... --tokens-limit 500000")
    .action(async (id: string, _o, c: Command) => {
      const o = ctx.opts(c) as Opts & { limit?: boolean };
      return runNuaClientUpdate(ctx, id, { ...o, noLimit: o.limit === false });
    });
}
