import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import { confirm } from "../../cli/prompt.js";
import * as models from "../../client/routes/models.js";

export async function runModelsRemove(
  ctx: Context,
  name: string,
  opts: { json?: boolean; yes?: boolean; force?: boolean; quiet?: boolean },
): Promise<void> {
  await confirm(ctx, opts, `remove model ${name}`);
  const res = await (await ctx.client(opts)).call(models.removeModel, {
    query: { name, force: opts.force ? "true" : undefined },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(`removed ${res.removed}`, opts);
}

export function modelsRemoveCommand(ctx: Context): Command {
  return new Command("remove")
    .alias("rm")
    .description("Remove an installed model or a configured endpoint")
    .argument("<name>", "model name")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--force", "remove it even while a knowledge box uses it (its semantic search stops)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox models remove all-MiniLM-L6-v2 --yes")
    .action(async (name: string, _o, cmd: Command) => runModelsRemove(ctx, name, ctx.opts(cmd)));
}
