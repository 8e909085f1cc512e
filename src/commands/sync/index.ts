import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { syncAddCommand } from "./add.js";
import { syncJobsCommand } from "./jobs.js";
import { syncListCommand } from "./list.js";
import { syncLogsCommand } from "./logs.js";
import { syncRemoveCommand } from "./remove.js";
import { syncRunCommand } from "./run.js";
import { syncShowCommand } from "./show.js";

export function syncCommand(ctx: Context): Command {
  return new Command("sync")
    .description("Keep folders and sitemaps in sync with a knowledge box")
    .addCommand(syncAddCommand(ctx))
    .addCommand(syncListCommand(ctx))
    .addCommand(syncShowCommand(ctx))
    .addCommand(syncRunCommand(ctx))
    .addCommand(syncRemoveCommand(ctx))
    .addCommand(syncJobsCommand(ctx))
    .addCommand(syncLogsCommand(ctx));
}
