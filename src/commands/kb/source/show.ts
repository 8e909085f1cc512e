import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import { printJson } from "../../../cli/output.js";
import * as api from "../../../client/routes/sources.js";
import type { SourceOpts } from "./body.js";

export async function runSourceShow(ctx: Context, id: string, o: SourceOpts): Promise<void> {
  const kbid = await ctx.kbid(o);
  printJson(ctx.io, await (await ctx.client(o)).call(api.getSource, { params: { kbid, source_id: id } }));
}

export function sourceShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Print one source (JSON)")
    .argument("<id>")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .addHelpText("after", "\nExample:\n  kbox kb source show manuals")
    .action(async (id: string, _o, cmd: Command) => runSourceShow(ctx, id, ctx.opts<SourceOpts>(cmd)));
}
