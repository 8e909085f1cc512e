import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import { formatCount, progress } from "../../cli/progress.js";
import * as ds from "../../client/routes/datasets.js";
import { ACCOUNT } from "./shared.js";

export interface DatasetGenerateOptions extends GlobalOptions {
  rows?: string;
}

/** Write a dataset's partitions from a knowledge box (Arrow IPC, the type's columns). */
export async function runDatasetGenerate(ctx: Context, id: string, opts: DatasetGenerateOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const bar = progress(ctx, { label: "partitions", quiet: opts.quiet });
  const res = await client.call(ds.generateDataset, {
    params: { ...ACCOUNT, dataset_id: id },
    body: { kb_id: kbid, rows_per_partition: opts.rows ? Number(opts.rows) : undefined } as never,
  });
  bar.update(res.partitions.length, res.partitions.length);
  bar.done();
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "partition", get: (p) => p.id },
      { header: "rows", get: (p) => String(p.rows) },
      { header: "size", get: (p) => formatCount(p.size, true) },
    ],
    res.partitions,
  );
}

export function datasetGenerateCommand(ctx: Context): Command {
  return new Command("generate")
    .description("Write a dataset's partitions from a knowledge box, filtered by the dataset's labels")
    .argument("<id>", "dataset id")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--rows <n>", "rows per partition (default 10000)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox dataset generate 6f1c... --kb notes")
    .action(async (id: string, _o, cmd: Command) => runDatasetGenerate(ctx, id, ctx.opts<DatasetGenerateOptions>(cmd)));
}
