import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as resources from "../../client/routes/resources.js";
import { resourceRoute } from "./shared.js";

export async function runResourceDelete(
  ctx: Context,
  ref: string,
  opts: { yes?: boolean; kb?: string; quiet?: boolean },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  await confirm(ctx, opts, `delete resource ${ref}`);
  const r = resourceRoute(resources.deleteResource, kbid, ref);
  await (await ctx.client(opts)).call(r.def, { params: r.params });
  ctx.status(`deleted ${ref}`, opts);
}

export function resourceDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a resource, its fields, paragraphs and files")
    .argument("<resource>", "resource id or slug")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox resource delete my-slug --yes")
    .action(async (ref: string, _o, cmd: Command) => runResourceDelete(ctx, ref, ctx.opts(cmd)));
}
