import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { saCreateCommand } from "./create.js";
import { saDeleteCommand } from "./delete.js";
import { saKeyCommand } from "./key.js";
import { saListCommand } from "./list.js";

export function saCommand(ctx: Context): Command {
  return new Command("sa")
    .description("Service accounts and API keys for TCP and remote clients")
    .addCommand(saCreateCommand(ctx))
    .addCommand(saListCommand(ctx))
    .addCommand(saDeleteCommand(ctx))
    .addCommand(saKeyCommand(ctx));
}
