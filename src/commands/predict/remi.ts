import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-predict.js";

type Opts = { json?: boolean; context?: string[] };

/** `kbox predict remi`: answer relevance, context relevance and groundedness (0..5). */
export async function runPredictRemi(ctx: Context, question: string, answer: string, o: Opts): Promise<void> {
  const body = { user_id: "kbox", question, answer, contexts: o.context ?? [] };
  const res = await (await ctx.client(o)).call(api.predictRemi, { body });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`answer_relevance\t${res.answer_relevance.score}\t${res.answer_relevance.reason}\n`);
  res.context_relevance.forEach((r, i) => {
    ctx.io.stdout.write(`context ${i + 1}\trelevance ${r}\tgroundedness ${res.groundedness[i]}\n`);
  });
}

export function predictRemiCommand(ctx: Context): Command {
  return new Command("remi")
    .description("Score an answer: relevance to the question, and each context's relevance and support (0..5)")
    .argument("<question>", "the question")
    .argument("<answer>", "the answer")
    .option("-c, --context <text>", "a context passage, repeatable", (v: string, acc: string[] = []) => [...acc, v])
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox predict remi "When does it open?" "At noon." -c "The vault opens at noon."')
    .action(async (q: string, a: string, _o, c: Command) => runPredictRemi(ctx, q, a, ctx.opts(c)));
}
