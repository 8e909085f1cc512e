import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";
import { agentAccount } from "./resolve.js";

export async function runAgentList(ctx: Context, o: { json?: boolean }): Promise<void> {
  const items = await (await ctx.client(o)).call(kbs.accountListKbs, {
    params: { account_id: await agentAccount(ctx, o) },
    query: { mode: "agents" },
  });
  if (o.json) return printJson(ctx.io, items);
  printTable(
    ctx.io,
    [
      { header: "slug", get: (k) => k.slug },
      { header: "id", get: (k) => k.id },
      { header: "title", get: (k) => k.title },
    ],
    items,
  );
}

export function agentListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List retrieval agents")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox agent list")
    .action(async (_o, cmd: Command) => runAgentList(ctx, ctx.opts(cmd)));
}
