import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as accounts from "../../client/routes/accounts.js";
import { saScope } from "./shared.js";

export async function runSaList(ctx: Context, opts: { json?: boolean; kb?: string }): Promise<void> {
  const res = await (await ctx.client(opts)).call(accounts.listServiceAccounts, { params: await saScope(ctx, opts) });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (a) => a.id },
      { header: "title", get: (a) => a.title },
      { header: "role", get: (a) => a.role },
      { header: "keys", get: (a) => a.keys.map((k) => `${k.id} (expires ${k.expires.slice(0, 10)})`).join(", ") },
    ],
    res,
  );
}

export function saListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List service accounts and their keys")
    .option("--kb <kb>", "those of this knowledge box (default: account-wide ones)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sa list --json")
    .action(async (_o, cmd: Command) => runSaList(ctx, ctx.opts(cmd)));
}
