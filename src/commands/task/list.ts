import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as tk from "../../client/routes/tasks.js";
import type { TaskRecord } from "./shared.js";

export interface TaskListOptions extends GlobalOptions {
  available?: boolean;
  count?: string;
}

/** The knowledge box's tasks (running, NEW-data, finished), or with --available the tasks it can run. */
export async function runTaskList(ctx: Context, opts: TaskListOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const res = await client.call(tk.listTasks, {
    params: { kb_uuid: kbid },
    query: { count: opts.count ? Number(opts.count) : undefined },
  });
  if (opts.json) return printJson(ctx.io, res);
  if (opts.available) {
    printTable(
      ctx.io,
      [
        { header: "name", get: (t) => t.name },
        { header: "supported", get: (t) => (t.supported ? "yes" : "no") },
        { header: "description", get: (t) => t.description },
      ],
      res.tasks,
    );
    return;
  }
  const seen = new Set<string>();
  const rows = [...res.running, ...res.configs, ...res.done].filter((t) => !seen.has(t.id) && seen.add(t.id));
  printTable<TaskRecord>(
    ctx.io,
    [
      { header: "id", get: (t) => t.id },
      { header: "task", get: (t) => t.task.name },
      { header: "apply", get: (t) => t.apply },
      { header: "status", get: (t) => t.status },
      { header: "enabled", get: (t) => (t.apply === "EXISTING" ? "-" : String(t.enabled)) },
      { header: "progress", get: (t) => `${t.progress.done}/${t.progress.total}` },
      { header: "method", get: (t) => t.method },
    ],
    rows,
  );
}

export function taskListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List a knowledge box's tasks, or the tasks it can run (--available)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--available", "list the task names and whether they run here")
    .option("--count <n>", "finished tasks to show (default 10)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox task list --kb notes\n  kbox task list --available")
    .action(async (_o, cmd: Command) => runTaskList(ctx, ctx.opts<TaskListOptions>(cmd)));
}
