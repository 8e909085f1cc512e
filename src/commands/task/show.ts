import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as tk from "../../client/routes/tasks.js";
import { printTask, recordOf } from "./shared.js";

/** Inspect one task. */
export async function runTaskShow(ctx: Context, id: string, opts: GlobalOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const res = await client.call(tk.inspectTask, { params: { kb_uuid: kbid, task_id: id } });
  if (opts.json) return printJson(ctx.io, res);
  const t = recordOf(res);
  if (t) printTask(ctx, t);
}

export function taskShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a task: status, method, progress, parameters and its last log lines")
    .argument("<id>", "task id")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox task show 3f2a... --kb notes")
    .action(async (id: string, _o, cmd: Command) => runTaskShow(ctx, id, ctx.opts(cmd)));
}
