import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as gr from "../../client/routes/guardrails.js";
import { ACCOUNT } from "./shared.js";

/** The account's guardrail policies. */
export async function runGuardrailList(ctx: Context, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  const res = await client.call(gr.listGuardrailPolicies, { params: ACCOUNT });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (p) => p.id },
      { header: "name", get: (p) => p.name },
      { header: "enabled", get: (p) => String(p.enabled) },
      { header: "blocking", get: (p) => String(p.blocking) },
      { header: "query", get: (p) => p.query },
    ],
    res,
  );
}

export function guardrailListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List the account's guardrail policies")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox guardrail list")
    .action(async (_o, cmd: Command) => runGuardrailList(ctx, ctx.opts(cmd)));
}
