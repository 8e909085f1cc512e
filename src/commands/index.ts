import type { Command } from "commander";
import type { Context } from "../cli/context.js";
import { daemonCommand } from "./daemon/index.js";
import { kbCommand } from "./kb/index.js";
import { resourceCommand } from "./resource/index.js";
import { saCommand } from "./sa/index.js";

/** Every top-level noun or verb; one line each, in help order. */
export function registerCommands(program: Command, ctx: Context): void {
  program.addCommand(daemonCommand(ctx));
  program.addCommand(kbCommand(ctx));
  program.addCommand(resourceCommand(ctx));
  program.addCommand(saCommand(ctx));
}
