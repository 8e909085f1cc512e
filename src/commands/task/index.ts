import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { taskDeleteCommand } from "./delete.js";
import { taskDisableCommand } from "./disable.js";
import { taskEnableCommand } from "./enable.js";
import { taskListCommand } from "./list.js";
import { taskRestartCommand } from "./restart.js";
import { taskShowCommand } from "./show.js";
import { taskStartCommand } from "./start.js";
import { taskStopCommand } from "./stop.js";

/** `kbox task ...`: tasks on a knowledge box. */
export function taskCommand(ctx: Context): Command {
  return new Command("task")
    .description("Tasks on a knowledge box: labeler, synthetic questions, ask, model migration, guard")
    .addCommand(taskStartCommand(ctx))
    .addCommand(taskListCommand(ctx))
    .addCommand(taskShowCommand(ctx))
    .addCommand(taskStopCommand(ctx))
    .addCommand(taskRestartCommand(ctx))
    .addCommand(taskEnableCommand(ctx))
    .addCommand(taskDisableCommand(ctx))
    .addCommand(taskDeleteCommand(ctx));
}
