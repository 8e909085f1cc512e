import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";

export async function runKbList(ctx: Context, opts: { json?: boolean }): Promise<void> {
  const client = await ctx.client(opts);
  const account = await ctx.accountForm(opts);
  if (account) {
    const items = await client.call(kbs.accountListKbs, { params: { account_id: account } });
    if (opts.json) return printJson(ctx.io, items);
    return printTable(
      ctx.io,
      [
        { header: "slug", get: (k) => k.slug },
        { header: "id", get: (k) => k.id },
        { header: "title", get: (k) => k.title },
        { header: "role", get: (k) => k.role_on_kb ?? "" },
      ],
      items,
    );
  }
  const res = await client.call(kbs.listKbs, {});
  if (opts.json) return printJson(ctx.io, res);
  const current = ctx.env.kb || ctx.profile(opts).kb;
  printTable(
    ctx.io,
    [
      { header: "", get: (k) => (k.slug === current || k.uuid === current ? "*" : "") },
      { header: "slug", get: (k) => k.slug },
      { header: "uuid", get: (k) => k.uuid },
      { header: "title", get: (k) => k.title },
    ],
    res.kbs,
  );
}

export function kbListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List knowledge boxes (* marks the current one); of an account with --account")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox kb list\n  kbox kb list --json | jq -r '.kbs[].slug'")
    .action(async (_o, cmd: Command) => runKbList(ctx, ctx.opts(cmd)));
}
