import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/predict.js";

/** `kbox predict sentences`: embed texts (Predict Sentences). */
export async function runPredictSentences(ctx: Context, texts: string[], o: { json?: boolean; model?: string }): Promise<void> {
  const res = await (await ctx.client(o)).call(api.predictSentences, { body: { input: texts, model: o.model } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "index", get: (d: (typeof res.data)[number]) => d.index, right: true },
      { header: "dim", get: (d) => d.embedding.length, right: true },
      {
        header: "vector",
        get: (d) =>
          `${d.embedding
            .slice(0, 4)
            .map((x) => x.toFixed(3))
            .join(" ")} ...`,
      },
    ],
    res.data,
  );
}

export function predictSentencesCommand(ctx: Context): Command {
  return new Command("sentences")
    .description("Embed texts with the daemon's (or the zone's) embedding model")
    .argument("<text...>", "texts to embed")
    .option("--model <model>", "embedding model")
    .option("--json", "print the wire response (the vectors)")
    .addHelpText("after", '\nExample:\n  kbox predict sentences "first text" "second text" --json')
    .action(async (texts: string[], _o, c: Command) => runPredictSentences(ctx, texts, ctx.opts(c)));
}
