import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { kbAgenticConfigCommand } from "./agentic-config.js";
import { kbConfigCommand } from "./config.js";
import { kbCreateCommand } from "./create.js";
import { kbDeleteCommand } from "./delete.js";
import { kbExportCommand } from "./export.js";
import { kbImportCommand } from "./import.js";
import { kbListCommand } from "./list.js";
import { kbInviteCommand, kbUsersCommand } from "./members.js";
import { kbPullCommand } from "./pull.js";
import { kbPushCommand } from "./push.js";
import { kbShowCommand } from "./show.js";
import { kbSourceCommand } from "./source/index.js";
import { kbUpdateCommand } from "./update.js";
import { kbUseCommand } from "./use.js";

export function kbCommand(ctx: Context): Command {
  return new Command("kb")
    .description("Create, list, inspect and select knowledge boxes")
    .addCommand(kbCreateCommand(ctx))
    .addCommand(kbListCommand(ctx))
    .addCommand(kbShowCommand(ctx))
    .addCommand(kbUpdateCommand(ctx))
    .addCommand(kbConfigCommand(ctx))
    .addCommand(kbDeleteCommand(ctx))
    .addCommand(kbUseCommand(ctx))
    .addCommand(kbUsersCommand(ctx))
    .addCommand(kbInviteCommand(ctx))
    .addCommand(kbExportCommand(ctx))
    .addCommand(kbImportCommand(ctx))
    .addCommand(kbPushCommand(ctx))
    .addCommand(kbPullCommand(ctx))
    .addCommand(kbAgenticConfigCommand(ctx))
    .addCommand(kbSourceCommand(ctx));
}
