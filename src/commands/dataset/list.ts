import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import { formatCount } from "../../cli/progress.js";
import * as ds from "../../client/routes/datasets.js";
import { ACCOUNT } from "./shared.js";

/** The account's datasets. */
export async function runDatasetList(ctx: Context, opts: GlobalOptions): Promise<void> {
  const client = await ctx.client(opts);
  const res = await client.call(ds.listDatasets, { params: ACCOUNT });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (d) => d.id },
      { header: "name", get: (d) => d.name },
      { header: "type", get: (d) => d.type },
      { header: "partitions", get: (d) => String(d.partitions.length) },
      {
        header: "size",
        get: (d) =>
          formatCount(
            d.partitions.reduce((a, p) => a + p.size, 0),
            true,
          ),
      },
    ],
    res.datasets,
  );
}

export function datasetListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List the account's datasets")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox dataset list")
    .action(async (_o, cmd: Command) => runDatasetList(ctx, ctx.opts(cmd)));
}
