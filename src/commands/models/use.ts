import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as models from "../../client/routes/models.js";

export async function runModelsUse(ctx: Context, name: string, opts: { json?: boolean; quiet?: boolean }): Promise<void> {
  const res = await (await ctx.client(opts)).call(models.useModel, { body: { name } });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(res.notice, opts);
}

export function modelsUseCommand(ctx: Context): Command {
  return new Command("use")
    .description("Make a model the default embedder for new knowledge boxes (a cross-encoder becomes the reranker)")
    .argument("<name>", "model name, e.g. Xenova/bge-small-en-v1.5, bge-small-en-v1.5 or openai:local")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox models use multilingual-e5-small\n  kbox models use ms-marco-MiniLM-L-6-v2")
    .action(async (name: string, _o, cmd: Command) => runModelsUse(ctx, name, ctx.opts(cmd)));
}
