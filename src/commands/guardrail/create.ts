import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as gr from "../../client/routes/guardrails.js";
import { ACCOUNT } from "./shared.js";

export interface GuardrailCreateOptions extends GlobalOptions {
  instruction: string;
  query: string;
  description?: string;
  enable?: boolean;
  monitor?: boolean;
}

/** Create a guardrail policy (disabled unless --enable; blocking unless --monitor). */
export async function runGuardrailCreate(ctx: Context, name: string, opts: GuardrailCreateOptions): Promise<void> {
  const client = await ctx.client(opts);
  const p = await client.call(gr.createGuardrailPolicy, {
    params: ACCOUNT,
    body: {
      name,
      instruction: opts.instruction,
      query: opts.query,
      description: opts.description,
      enabled: opts.enable ?? false,
      blocking: !opts.monitor,
    } as never,
  });
  if (opts.json) return printJson(ctx.io, p);
  ctx.io.stdout.write(`${p.id}\n`);
}

export function guardrailCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a guardrail policy evaluated on ask and predict queries")
    .argument("<name>", "policy name (1..200 characters)")
    .requiredOption("--instruction <text>", "what the policy forbids (offline: its quoted phrases are trigger terms)")
    .requiredOption("--query <text>", "the question a model answers about a query (offline: comma-separated trigger terms)")
    .option("--description <text>", "a description")
    .option("--enable", "evaluate it from now on")
    .option("--monitor", "only report violations (not blocking)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox guardrail create "No secrets" --instruction 'Questions about "passwords"' --query "credentials" --enable`,
    )
    .action(async (name: string, _o, cmd: Command) => runGuardrailCreate(ctx, name, ctx.opts<GuardrailCreateOptions>(cmd)));
}
