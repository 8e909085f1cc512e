import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as gr from "../../client/routes/guardrails.js";
import { ACCOUNT, printPolicy } from "./shared.js";

export async function runGuardrailShow(ctx: Context, id: string, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  const p = await client.call(gr.getGuardrailPolicy, { params: { ...ACCOUNT, policy_id: id } });
  if (opts.json) return printJson(ctx.io, p);
  printPolicy(ctx, p);
}

export function guardrailShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a guardrail policy")
    .argument("<id>", "policy id")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox guardrail show 0f0f...")
    .action(async (id: string, _o, cmd: Command) => runGuardrailShow(ctx, id, ctx.opts(cmd)));
}
