import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/predict.js";

type Opts = { json?: boolean; rephrase?: boolean; rephrasePrompt?: string };

/** `kbox predict query`: analyse a query (language, stop words, entities, vector). */
export async function runPredictQuery(ctx: Context, text: string, o: Opts): Promise<void> {
  const body = {
    text,
    ...(o.rephrase ? { rephrase: true } : {}),
    ...(o.rephrasePrompt ? { rephrase_prompt: o.rephrasePrompt } : {}),
  };
  const res = (await (await ctx.client(o)).call(api.predictQuery, { body })) as Record<string, unknown>;
  if (o.json) return printJson(ctx.io, res);
  const sentence = res.sentence as { data?: number[]; model?: string } | null;
  const entities = ((res.entities as { tokens?: { text: string; ner: string }[] } | null)?.tokens ?? []).map(
    (t) => `${t.text}/${t.ner}`,
  );
  const rows: [string, string][] = [
    ["language", String(res.language ?? "")],
    ["stop_words", ((res.stop_words as string[]) ?? []).join(" ")],
    ["entities", entities.join(" ")],
    ["rephrased", String(res.rephrased_query ?? "")],
    ["vector", sentence?.data?.length ? `${sentence.data.length} dims (${sentence.model ?? ""})` : ""],
  ];
  for (const [k, v] of rows) ctx.io.stdout.write(`${k}\t${v}\n`);
}

export function predictQueryCommand(ctx: Context): Command {
  return new Command("query")
    .description("Analyse a query: language, stop words, entities, rephrasing, its vector")
    .argument("<text>", "the query")
    .option("--rephrase", "rephrase the query with the generative model")
    .option("--rephrase-prompt <prompt>", "prompt for rephrasing")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox predict query "who keeps the lighthouse" --json')
    .action(async (text: string, _o, c: Command) => runPredictQuery(ctx, text, ctx.opts(c)));
}
