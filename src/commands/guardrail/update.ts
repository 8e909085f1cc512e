import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as gr from "../../client/routes/guardrails.js";
import { ACCOUNT, printPolicy } from "./shared.js";

export interface GuardrailUpdateOptions extends GlobalOptions {
  name?: string;
  instruction?: string;
  query?: string;
  enable?: boolean;
  disable?: boolean;
  blocking?: boolean;
  monitor?: boolean;
}

/** Change members of a policy: only those given. */
export async function runGuardrailUpdate(ctx: Context, id: string, opts: GuardrailUpdateOptions): Promise<void> {
  const client = await ctx.client(opts);
  const body = {
    name: opts.name,
    instruction: opts.instruction,
    query: opts.query,
    enabled: opts.enable ? true : opts.disable ? false : undefined,
    blocking: opts.blocking ? true : opts.monitor ? false : undefined,
  };
  const p = await client.call(gr.updateGuardrailPolicy, { params: { ...ACCOUNT, policy_id: id }, body: body as never });
  if (opts.json) return printJson(ctx.io, p);
  printPolicy(ctx, p);
}

export function guardrailUpdateCommand(ctx: Context): Command {
  return new Command("update")
    .description("Update a guardrail policy (members given only)")
    .argument("<id>", "policy id")
    .option("--name <name>", "new name")
    .option("--instruction <text>", "new instruction")
    .option("--query <text>", "new query")
    .option("--enable", "evaluate it")
    .option("--disable", "stop evaluating it")
    .option("--blocking", "violations stop the answer")
    .option("--monitor", "violations are only reported")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox guardrail update 0f0f... --enable --monitor")
    .action(async (id: string, _o, cmd: Command) => runGuardrailUpdate(ctx, id, ctx.opts<GuardrailUpdateOptions>(cmd)));
}
