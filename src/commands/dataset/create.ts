import { Command, Option } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as ds from "../../client/routes/datasets.js";
import { ACCOUNT } from "./shared.js";

export interface DatasetCreateOptions extends GlobalOptions {
  type: (typeof ds.DATASET_TYPES)[number];
  label?: string[];
  format?: "arrow" | "parquet";
}

/** Create a dataset: a name, a type, and the labels (labelsets or labels) its rows carry. */
export async function runDatasetCreate(ctx: Context, name: string, opts: DatasetCreateOptions): Promise<void> {
  const client = await ctx.client(opts);
  const res = await client.call(ds.createAccountDataset, {
    params: ACCOUNT,
    body: {
      name,
      type: opts.type,
      filter: { labels: opts.label ?? [] },
      format: opts.format === "parquet" ? "PARQUET" : "ARROW",
    },
  });
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
}

export function datasetCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a dataset")
    .argument("<name>", "dataset name")
    .addOption(new Option("--type <type>", "what its rows are").choices([...ds.DATASET_TYPES]).makeOptionMandatory())
    .option("--label <label...>", "keep only these labelsets (topics) or labels (/l/topics/pets)")
    .addOption(
      new Option("--format <format>", "how generated partitions are written").choices(["arrow", "parquet"]).default("arrow"),
    )
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox dataset create pets --type PARAGRAPH_CLASSIFICATION --label topics\n  kbox dataset create qa --type QUESTION_ANSWER_STREAMING --format parquet",
    )
    .action(async (name: string, _o, cmd: Command) => runDatasetCreate(ctx, name, ctx.opts<DatasetCreateOptions>(cmd)));
}
