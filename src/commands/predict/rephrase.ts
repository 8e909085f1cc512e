import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-predict.js";

type Opts = { json?: boolean; user?: string[]; model?: string; prompt?: string };

/** `kbox predict rephrase`: a follow-up question as a standalone query, given the earlier user turns. */
export async function runPredictRephrase(ctx: Context, question: string, o: Opts): Promise<void> {
  if (!question.trim()) throw usageError("the question is empty");
  const body = {
    question,
    chat_history: (o.user ?? []).map((text) => ({ author: "USER" as const, text })),
    ...(o.model ? { generative_model: o.model } : {}),
    ...(o.prompt ? { prompt: o.prompt } : {}),
  };
  const res = await (await ctx.client(o)).call(api.predictRephrase, { body, query: {} });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res}\n`);
}

export function predictRephraseCommand(ctx: Context): Command {
  return new Command("rephrase")
    .description("Rephrase a follow-up question as a standalone query")
    .argument("<question>", "the follow-up question")
    .option("-u, --user <text>", "an earlier user turn, repeatable (oldest first)", (v: string, acc: string[] = []) => [
      ...acc,
      v,
    ])
    .option("--model <model>", "generative model (the offline method without one)")
    .option("--prompt <prompt>", "rephrase prompt ({question} marks the question)")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox predict rephrase "when was it rebuilt?" -u "tell me about the lighthouse"')
    .action(async (q: string, _o, c: Command) => runPredictRephrase(ctx, q, ctx.opts(c)));
}
