import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { datasetCreateCommand } from "./create.js";
import { datasetDeleteCommand } from "./delete.js";
import { datasetGenerateCommand } from "./generate.js";
import { datasetListCommand } from "./list.js";

/** `kbox dataset ...`: the account's training datasets. */
export function datasetCommand(ctx: Context): Command {
  return new Command("dataset")
    .description("Datasets: create, list, delete, generate partitions from a knowledge box")
    .addCommand(datasetCreateCommand(ctx))
    .addCommand(datasetListCommand(ctx))
    .addCommand(datasetGenerateCommand(ctx))
    .addCommand(datasetDeleteCommand(ctx));
}
