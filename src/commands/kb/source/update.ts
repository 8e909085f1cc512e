import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import * as api from "../../../client/routes/sources.js";
import { type SourceOpts, sourceOf } from "./body.js";

export async function runSourceUpdate(ctx: Context, id: string, o: SourceOpts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body = (await sourceOf(ctx, o)) as api.SourcePatch;
  await (await ctx.client(o)).call(api.updateSource, { params: { kbid, source_id: id }, body });
  ctx.status(`updated source ${id}`, o);
}

export function sourceUpdateCommand(ctx: Context): Command {
  return new Command("update")
    .description("Replace the members given (null in JSON removes one)")
    .argument("<id>")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--type <type>", "nucliadb, perplexity, google, mcp or sync")
    .option("--description <text>", "what the source holds")
    .option("--config <json>", "the members, as JSON")
    .option("--file <path|->", "read the members from a file or stdin")
    .addHelpText("after", "\nExample:\n  kbox kb source update manuals --description 'Product manuals'")
    .action(async (id: string, _o, cmd: Command) => runSourceUpdate(ctx, id, ctx.opts<SourceOpts>(cmd)));
}
