import type { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { runTaskChange, taskChangeCommand } from "./change.js";

/** `kbox task enable <id>`. */
export const runTaskEnable = (ctx: Context, id: string, opts: GlobalOptions) => runTaskChange(ctx, "enable", id, opts);

export function taskEnableCommand(ctx: Context): Command {
  return taskChangeCommand(ctx, "enable");
}
