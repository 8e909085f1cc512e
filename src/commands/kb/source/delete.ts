import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import * as api from "../../../client/routes/sources.js";
import type { SourceOpts } from "./body.js";

export async function runSourceDelete(ctx: Context, id: string, o: SourceOpts): Promise<void> {
  const kbid = await ctx.kbid(o);
  await (await ctx.client(o)).call(api.deleteSource, { params: { kbid, source_id: id } });
  ctx.status(`deleted source ${id} and the agentic configurations naming it`, o);
}

export function sourceDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a source, and every agentic configuration that names it")
    .argument("<id>")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .addHelpText("after", "\nExample:\n  kbox kb source delete manuals")
    .action(async (id: string, _o, cmd: Command) => runSourceDelete(ctx, id, ctx.opts<SourceOpts>(cmd)));
}
