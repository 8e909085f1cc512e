import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as tk from "../../client/routes/tasks.js";
import { printTask, recordOf, waitTask } from "./shared.js";

export interface TaskShowOptions extends GlobalOptions {
  follow?: boolean;
}

/** Inspect one task; --follow first follows its running batch with a progress bar until it ends. */
export async function runTaskShow(ctx: Context, id: string, opts: TaskShowOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  let res = await client.call(tk.inspectTask, { params: { kb_uuid: kbid, task_id: id } });
  if (opts.follow && res.request && ["scheduled", "running"].includes(res.request.status)) {
    await waitTask(ctx, opts, client, kbid, id);
    res = await client.call(tk.inspectTask, { params: { kb_uuid: kbid, task_id: id } });
  } else if (opts.follow) ctx.status(`task ${id} has no running batch to follow`, opts);
  if (opts.json) return printJson(ctx.io, res);
  const t = recordOf(res);
  if (t) printTask(ctx, t);
}

export function taskShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a task: status, method, progress, parameters and its last log lines")
    .argument("<id>", "task id")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--follow", "follow a running batch until it ends (progress bar on a TTY), then show the task")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox task show 3f2a... --kb notes\n  kbox task show 3f2a... --kb notes --follow")
    .action(async (id: string, _o, cmd: Command) => runTaskShow(ctx, id, ctx.opts<TaskShowOptions>(cmd)));
}
