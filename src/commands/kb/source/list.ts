import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import { printJson, printTable } from "../../../cli/output.js";
import * as api from "../../../client/routes/sources.js";
import type { SourceOpts } from "./body.js";

export async function runSourceList(ctx: Context, o: SourceOpts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const res = await (await ctx.client(o)).call(api.listSources, { params: { kbid } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => r[0] },
      { header: "type", get: (r) => r[1].type },
      { header: "description", get: (r) => r[1].description ?? "" },
    ],
    Object.entries(res),
  );
}

export function sourceListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List sources")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox kb source list --kb notes")
    .action(async (_o, cmd: Command) => runSourceList(ctx, ctx.opts<SourceOpts>(cmd)));
}
