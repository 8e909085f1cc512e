import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import * as gr from "../../client/routes/guardrails.js";
import { ACCOUNT } from "./shared.js";

export async function runGuardrailDelete(ctx: Context, id: string, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  await client.call(gr.deleteGuardrailPolicy, { params: { ...ACCOUNT, policy_id: id } });
  ctx.status(`deleted ${id}`, opts);
}

export function guardrailDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a guardrail policy")
    .argument("<id>", "policy id")
    .addHelpText("after", "\nExamples:\n  kbox guardrail delete 0f0f...")
    .action(async (id: string, _o, cmd: Command) => runGuardrailDelete(ctx, id, ctx.opts(cmd)));
}
