import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as tk from "../../client/routes/tasks.js";

/** The verbs that change a task's state: stop, restart (EXISTING data), enable, disable (NEW data). */
export type Change = "stop" | "restart" | "enable" | "disable";

export async function runTaskChange(ctx: Context, change: Change, id: string, opts: GlobalOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const params = { kb_uuid: kbid, task_id: id };
  const res =
    change === "stop"
      ? await client.call(tk.stopTask, { params, body: {} })
      : change === "restart"
        ? await client.call(tk.restartTask, { params, body: {} })
        : await client.call(tk.enableTask, { params, body: { enabled: change === "enable" } });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(`${change === "stop" ? "stopped" : change === "restart" ? "restarted" : `${change}d`} ${id}`, opts);
}

const HELP: Record<Change, string> = {
  stop: "Stop a running task on EXISTING data (409 for a NEW-data task or one not running)",
  restart: "Run a task on EXISTING data again from the start (409 for a NEW-data task)",
  enable: "Hand resources processed from now on to a NEW-data task (409 for an EXISTING-data task)",
  disable: "Stop handing processed resources to a NEW-data task (409 for an EXISTING-data task)",
};

/** One lifecycle verb as a command. */
export function taskChangeCommand(ctx: Context, change: Change): Command {
  return new Command(change)
    .description(HELP[change])
    .argument("<id>", "task id")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", `\nExamples:\n  kbox task ${change} 3f2a... --kb notes`)
    .action(async (id: string, _o, cmd: Command) => runTaskChange(ctx, change, id, ctx.opts(cmd)));
}
