import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { backupCreateCommand } from "./create.js";
import { backupDeleteCommand } from "./delete.js";
import { backupListCommand } from "./list.js";
import { backupRestoreCommand } from "./restore.js";
import { backupScheduleCommand } from "./schedule.js";

/** `kbox backup ...`: create, list, restore, delete and schedule backups. */
export function backupCommand(ctx: Context): Command {
  return new Command("backup")
    .description("Back up and restore knowledge boxes")
    .addCommand(backupCreateCommand(ctx))
    .addCommand(backupListCommand(ctx))
    .addCommand(backupRestoreCommand(ctx))
    .addCommand(backupDeleteCommand(ctx))
    .addCommand(backupScheduleCommand(ctx));
}
