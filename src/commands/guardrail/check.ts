import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { EXIT } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as gr from "../../client/routes/guardrails.js";

export interface GuardrailCheckOptions extends GlobalOptions {
  policy?: string;
}

/** Evaluate content against one policy or every enabled one (Predict Guardrail); exit 1 when flagged. */
export async function runGuardrailCheck(ctx: Context, content: string, opts: GuardrailCheckOptions): Promise<void> {
  const client = await ctx.client(opts);
  const r = await client.call(gr.predictGuardrail, { body: { content, policy_id: opts.policy } });
  if (opts.json) printJson(ctx.io, r);
  else ctx.io.stdout.write(`${r.flagged ? "flagged" : "ok"}\t${r.score}\t${r.method}\t${r.reason}\n`);
  if (r.flagged) ctx.exitCode = EXIT.failure;
}

export function guardrailCheckCommand(ctx: Context): Command {
  return new Command("check")
    .description("Evaluate a text against a policy, or every enabled one (exit 1 when flagged)")
    .argument("<content>", "the text to evaluate")
    .option("--policy <id>", "one policy (default: every enabled policy)")
    .option("--json", "print the wire response")
    .addHelpText("after", `\nExamples:\n  kbox guardrail check "what is the admin password?"`)
    .action(async (content: string, _o, cmd: Command) => runGuardrailCheck(ctx, content, ctx.opts<GuardrailCheckOptions>(cmd)));
}
