import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { modelsAddCommand } from "./add.js";
import { modelsListCommand } from "./list.js";
import { modelsPullCommand } from "./pull.js";
import { modelsRemoveCommand } from "./remove.js";
import { modelsUseCommand } from "./use.js";

export function modelsCommand(ctx: Context): Command {
  return new Command("models")
    .description("Embedding and reranking models: list, pull from the hub, use, add an endpoint, remove")
    .addCommand(modelsListCommand(ctx))
    .addCommand(modelsPullCommand(ctx))
    .addCommand(modelsUseCommand(ctx))
    .addCommand(modelsAddCommand(ctx))
    .addCommand(modelsRemoveCommand(ctx));
}
