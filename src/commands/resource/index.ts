import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { resourceCreateCommand } from "./create.js";
import { resourceDeleteCommand } from "./delete.js";
import { resourceListCommand } from "./list.js";
import { resourceShowCommand } from "./show.js";
import { resourceStatusCommand } from "./status.js";
import { resourceUpdateCommand } from "./update.js";

export function resourceCommand(ctx: Context): Command {
  return new Command("resource")
    .description("Create, list, inspect, change and delete resources")
    .addCommand(resourceCreateCommand(ctx))
    .addCommand(resourceListCommand(ctx))
    .addCommand(resourceShowCommand(ctx))
    .addCommand(resourceStatusCommand(ctx))
    .addCommand(resourceUpdateCommand(ctx))
    .addCommand(resourceDeleteCommand(ctx));
}
