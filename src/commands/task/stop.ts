import type { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { runTaskChange, taskChangeCommand } from "./change.js";

/** `kbox task stop <id>`. */
export const runTaskStop = (ctx: Context, id: string, opts: GlobalOptions) => runTaskChange(ctx, "stop", id, opts);

export function taskStopCommand(ctx: Context): Command {
  return taskChangeCommand(ctx, "stop");
}
