import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import * as tk from "../../client/routes/tasks.js";

export interface TaskDeleteOptions extends GlobalOptions {
  cleanup?: boolean;
}

/** Delete a task; --cleanup also removes what it wrote (labels, question answers, generated fields). */
export async function runTaskDelete(ctx: Context, id: string, opts: TaskDeleteOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  await client.call(tk.deleteTask, { params: { kb_uuid: kbid, task_id: id }, query: { cleanup: opts.cleanup } });
  ctx.status(`deleted ${id}${opts.cleanup ? " and what it wrote" : ""}`, opts);
}

export function taskDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete a task (stopping it); --cleanup removes what it wrote")
    .argument("<id>", "task id")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--cleanup", "also remove the labels, question answers and fields it wrote")
    .addHelpText("after", "\nExamples:\n  kbox task delete 3f2a... --kb notes --cleanup")
    .action(async (id: string, _o, cmd: Command) => runTaskDelete(ctx, id, ctx.opts<TaskDeleteOptions>(cmd)));
}
