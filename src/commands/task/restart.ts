import type { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { runTaskChange, taskChangeCommand } from "./change.js";

/** `kbox task restart <id>`. */
export const runTaskRestart = (ctx: Context, id: string, opts: GlobalOptions) => runTaskChange(ctx, "restart", id, opts);

export function taskRestartCommand(ctx: Context): Command {
  return taskChangeCommand(ctx, "restart");
}
