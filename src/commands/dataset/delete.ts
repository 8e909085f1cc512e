import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import * as ds from "../../client/routes/datasets.js";
import { ACCOUNT } from "./shared.js";

export interface DatasetDeleteOptions extends GlobalOptions {
  partition?: string;
  partitions?: boolean;
}

/** Delete a dataset, one of its partitions (--partition), or all of them (--partitions). */
export async function runDatasetDelete(ctx: Context, id: string, opts: DatasetDeleteOptions): Promise<void> {
  const client = await ctx.client(opts);
  const params = { ...ACCOUNT, dataset_id: id };
  if (opts.partition) await client.call(ds.deletePartition, { params: { ...params, partition_id: opts.partition } });
  else if (opts.partitions) await client.call(ds.deletePartitions, { params });
  else await client.call(ds.deleteAccountDataset, { params });
  ctx.status(
    `deleted ${opts.partition ? `partition ${opts.partition}` : opts.partitions ? "every partition" : "dataset"} of ${id}`,
    opts,
  );
}

export function datasetDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a dataset, one partition, or every partition")
    .argument("<id>", "dataset id")
    .option("--partition <id>", "delete only this partition")
    .option("--partitions", "delete every partition, keeping the dataset")
    .addHelpText("after", "\nExamples:\n  kbox dataset delete 6f1c...\n  kbox dataset delete 6f1c... --partition p0000")
    .action(async (id: string, _o, cmd: Command) => runDatasetDelete(ctx, id, ctx.opts<DatasetDeleteOptions>(cmd)));
}
