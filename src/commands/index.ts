import type { Command } from "commander";
import type { Context } from "../cli/context.js";
import { backupCommand } from "./backup/index.js";
import { catalogCommand } from "./catalog.js";
import { daemonCommand } from "./daemon/index.js";
import { findCommand } from "./find.js";
import { kbCommand } from "./kb/index.js";
import { labelsetCommand } from "./labelset/index.js";
import { modelsCommand } from "./models/index.js";
import { resourceCommand } from "./resource/index.js";
import { saCommand } from "./sa/index.js";
import { searchConfigCommand } from "./search-config/index.js";

/** Every top-level noun or verb; one line each, in help order. */
export function registerCommands(program: Command, ctx: Context): void {
  program.addCommand(backupCommand(ctx));
  program.addCommand(daemonCommand(ctx));
  program.addCommand(kbCommand(ctx));
  program.addCommand(modelsCommand(ctx));
  program.addCommand(resourceCommand(ctx));
  program.addCommand(saCommand(ctx));
  program.addCommand(findCommand(ctx));
  program.addCommand(catalogCommand(ctx));
  program.addCommand(searchConfigCommand(ctx));
  program.addCommand(labelsetCommand(ctx));
}
