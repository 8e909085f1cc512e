import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/nua-predict.js";

/** `kbox predict rerank`: score passages for a question, best first. */
export async function runPredictRerank(ctx: Context, question: string, passages: string[], o: { json?: boolean }) {
  if (!passages.length) throw usageError("give at least one passage to score");
  const context = Object.fromEntries(passages.map((p, i) => [`p${i + 1}`, p]));
  const res = await (await ctx.client(o)).call(api.predictRerank, { body: { question, context } });
  if (o.json) return printJson(ctx.io, res);
  const rows = Object.entries(res.context_scores).sort((a, b) => b[1] - a[1]);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r: (typeof rows)[number]) => r[0] },
      { header: "score", get: (r) => r[1].toFixed(4), right: true },
      { header: "passage", get: (r) => context[r[0]].slice(0, 60) },
    ],
    rows,
  );
}

export function predictRerankCommand(ctx: Context): Command {
  return new Command("rerank")
    .description("Score passages for a question (the installed reranker, else term overlap)")
    .argument("<question>", "the question")
    .argument("<passage...>", "passages to score")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox predict rerank "when does it open" "It opens at noon." "Bees make honey."')
    .action(async (q: string, passages: string[], _o, c: Command) => runPredictRerank(ctx, q, passages, ctx.opts(c)));
}
