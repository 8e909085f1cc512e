import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/predict.js";

/** `kbox predict models`: the models the understanding API serves. */
export async function runPredictModels(ctx: Context, o: { json?: boolean }): Promise<void> {
  const res = await (await ctx.client(o)).call(api.listModels);
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (m: (typeof res.data)[number]) => m.id },
      { header: "type", get: (m) => m.model_type },
      { header: "title", get: (m) => m.title },
    ],
    res.data,
  );
}

export function predictModelsCommand(ctx: Context): Command {
  return new Command("models")
    .description("List the models the understanding API serves (generative and embedding)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox predict models")
    .action(async (_o, c: Command) => runPredictModels(ctx, ctx.opts(c)));
}
