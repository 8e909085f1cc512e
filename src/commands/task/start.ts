import { Command, Option } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as tk from "../../client/routes/tasks.js";
import { printTask, readParams, waitTask } from "./shared.js";

export interface TaskStartOptions extends GlobalOptions {
  apply?: "EXISTING" | "NEW" | "ALL";
  params?: string;
  paramsFile?: string;
  disabled?: boolean;
  wait?: boolean;
}

/** Start a task on a knowledge box; --wait follows its batch with a progress bar. */
export async function runTaskStart(ctx: Context, name: string, opts: TaskStartOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const parameters = readParams(opts);
  const client = await ctx.client(opts);
  const res = await client.call(tk.startTask, {
    params: { kb_uuid: kbid },
    body: { name: name as never, parameters, apply: opts.apply ?? "ALL", enabled: opts.disabled ? false : undefined },
  });
  if (opts.wait && opts.apply !== "NEW") {
    const t = await waitTask(ctx, opts, client, kbid, res.id);
    if (opts.json) return printJson(ctx.io, t);
    return printTask(ctx, t);
  }
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
  ctx.status(`${res.name} ${res.status}`, opts);
}

export function taskStartCommand(ctx: Context): Command {
  return new Command("start")
    .description("Start a task (labeler, synthetic-questions, ask, semantic-model-migrator, guard-a, guard-b)")
    .argument("<name>", "task name (kbox task list shows them)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .addOption(
      new Option("--apply <data>", "EXISTING resources, NEW ones as they are processed, or ALL").choices([
        "EXISTING",
        "NEW",
        "ALL",
      ]),
    )
    .option("--params <json>", "the task's parameters as JSON")
    .option("--params-file <file>", "read the parameters from a JSON file")
    .option("--disabled", "define a NEW-data task without enabling it")
    .option("--wait", "follow the batch until it ends (progress bar on a TTY)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox task start labeler --apply EXISTING --wait --params '{"operations":[{"label":{"ident":"topics","labels":[{"label":"pets","examples":["cat","dog"]}]}}]}'\n  kbox task start semantic-model-migrator --apply EXISTING --params '{"semantic_model_id":"bge-small-en-v1.5"}'`,
    )
    .action(async (name: string, _o, cmd: Command) => runTaskStart(ctx, name, ctx.opts<TaskStartOptions>(cmd)));
}
