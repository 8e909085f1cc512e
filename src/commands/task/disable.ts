import type { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { runTaskChange, taskChangeCommand } from "./change.js";

/** `kbox task disable <id>`. */
export const runTaskDisable = (ctx: Context, id: string, opts: GlobalOptions) => runTaskChange(ctx, "disable", id, opts);

export function taskDisableCommand(ctx: Context): Command {
  return taskChangeCommand(ctx, "disable");
}
