import type { Command } from "commander";
import type { Context } from "../cli/context.js";
import { addCommand } from "./add.js";
import { askCommand } from "./ask.js";
import { backupCommand } from "./backup/index.js";
import { chatCommand } from "./chat.js";
import { catalogCommand } from "./catalog.js";
import { daemonCommand } from "./daemon/index.js";
import { findCommand } from "./find.js";
import { kbCommand } from "./kb/index.js";
import { labelsetCommand } from "./labelset/index.js";
import { modelsCommand } from "./models/index.js";
import { resourceCommand } from "./resource/index.js";
import { saCommand } from "./sa/index.js";
import { authCommand } from "./auth/index.js";
import { completeCommand, completionCommand } from "./completion.js";
import { configCommand } from "./config/commands.js";
import { doctorCommand } from "./doctor.js";
import { profileCommand } from "./profile/index.js";
import { searchConfigCommand } from "./search-config/index.js";
import { syncCommand } from "./sync/index.js";
import { uploadCommand } from "./upload.js";
import { watchCommand } from "./watch.js";

/** Every top-level noun or verb; one line each, in help order. */
export function registerCommands(program: Command, ctx: Context): void {
  program.addCommand(backupCommand(ctx));
  program.addCommand(daemonCommand(ctx));
  program.addCommand(kbCommand(ctx));
  program.addCommand(modelsCommand(ctx));
  program.addCommand(resourceCommand(ctx));
  program.addCommand(saCommand(ctx));
  program.addCommand(profileCommand(ctx));
  program.addCommand(authCommand(ctx));
  program.addCommand(configCommand(ctx));
  program.addCommand(completionCommand(ctx));
  program.addCommand(doctorCommand(ctx));
  program.addCommand(completeCommand(ctx), { hidden: true });
  program.addCommand(findCommand(ctx));
  program.addCommand(askCommand(ctx));
  program.addCommand(chatCommand(ctx));
  program.addCommand(catalogCommand(ctx));
  program.addCommand(searchConfigCommand(ctx));
  program.addCommand(labelsetCommand(ctx));
  program.addCommand(syncCommand(ctx));
  program.addCommand(watchCommand(ctx));
  program.addCommand(addCommand(ctx));
  program.addCommand(uploadCommand(ctx));
}
