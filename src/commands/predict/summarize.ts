import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as api from "../../client/routes/nua-predict.js";

type Opts = { json?: boolean; model?: string; extended?: boolean; prompt?: string; file?: string[] };

/** `kbox predict summarize`: summarize texts (and files) with the generative model, or extractively. */
export async function runPredictSummarize(ctx: Context, texts: string[], o: Opts): Promise<void> {
  const items: [string, string][] = texts.map((t, i) => [`text${i + 1}`, t]);
  for (const f of o.file ?? []) {
    try {
      items.push([f, readFileSync(f, "utf8")]);
    } catch (e) {
      throw usageError(`cannot read ${f}: ${(e as Error).message}`);
    }
  }
  if (!items.length) throw usageError("give a text or --file to summarize");
  const body = {
    resources: Object.fromEntries(items.map(([id, text]) => [id, { fields: { text } }])),
    summary_kind: o.extended ? ("extended" as const) : ("simple" as const),
    ...(o.prompt ? { user_prompt: o.prompt } : {}),
    ...(o.model ? { generative_model: o.model } : {}),
  };
  const res = await (await ctx.client(o)).call(api.predictSummarize, { body, query: {} });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.summary}\n`);
  ctx.status(`model: ${res.model}`, o);
}

export function predictSummarizeCommand(ctx: Context): Command {
  return new Command("summarize")
    .description("Summarize texts or files (the generative model; extractive without one)")
    .argument("[text...]", "texts to summarize")
    .option("-f, --file <path>", "a text file to summarize, repeatable", (v: string, acc: string[] = []) => [...acc, v])
    .option("--extended", "a longer summary")
    .option("--prompt <prompt>", "instruction for the model")
    .option("--model <model>", "generative model")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox predict summarize -f notes.txt --model openai:llama3@http://127.0.0.1:11434/v1")
    .action(async (texts: string[], _o, c: Command) => runPredictSummarize(ctx, texts, ctx.opts(c)));
}
