import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import { sourceCreateCommand } from "./create.js";
import { sourceDeleteCommand } from "./delete.js";
import { sourceListCommand } from "./list.js";
import { sourceShowCommand } from "./show.js";
import { sourceUpdateCommand } from "./update.js";

export function kbSourceCommand(ctx: Context): Command {
  return new Command("source")
    .description("Sources that agentic configurations name (smart_agent.sources)")
    .addCommand(sourceListCommand(ctx))
    .addCommand(sourceShowCommand(ctx))
    .addCommand(sourceCreateCommand(ctx))
    .addCommand(sourceUpdateCommand(ctx))
    .addCommand(sourceDeleteCommand(ctx));
}
