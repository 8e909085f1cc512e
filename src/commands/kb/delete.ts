import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as kbs from "../../client/routes/kbs.js";

export async function runKbDelete(
  ctx: Context,
  ref: string,
  opts: { json?: boolean; yes?: boolean; quiet?: boolean },
): Promise<void> {
  const kbid = await ctx.kbid({ ...opts, kb: ref });
  await confirm(ctx, opts, `delete knowledge box ${ref} and all its data`);
  const account = await ctx.accountForm(opts);
  const client = await ctx.client(opts);
  const res = account
    ? (await client.call(kbs.accountDeleteKb, { params: { account_id: account, kb_id: kbid } }), { uuid: kbid })
    : await client.call(kbs.deleteKb, { params: { kbid } });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(`deleted knowledge box ${ref}`, opts);
}

export function kbDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a knowledge box and everything in it")
    .argument("<kb>", "slug or uuid")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox kb delete old-notes --yes")
    .action(async (ref: string, _o, cmd: Command) => runKbDelete(ctx, ref, ctx.opts(cmd)));
}
