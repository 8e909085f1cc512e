import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { logsCommand } from "./logs.js";
import { restartCommand } from "./restart.js";
import { startCommand } from "./start.js";
import { statusCommand } from "./status.js";
import { stopCommand } from "./stop.js";

export function daemonCommand(ctx: Context): Command {
  return new Command("daemon")
    .description("Start, stop and inspect the background daemon kboxd")
    .addCommand(startCommand(ctx))
    .addCommand(stopCommand(ctx))
    .addCommand(statusCommand(ctx))
    .addCommand(restartCommand(ctx))
    .addCommand(logsCommand(ctx));
}
