import { readFileSync } from "node:fs";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printFields } from "../../cli/output.js";
import { progress } from "../../cli/progress.js";
import type { KboxClient } from "../../client/client.js";
import * as tk from "../../client/routes/tasks.js";

export type TaskRecord = tk.TaskRecord;

/** Task parameters from --params (JSON) or --params-file; exit 2 when they are not a JSON object. */
export function readParams(opts: { params?: string; paramsFile?: string }): Record<string, unknown> | undefined {
  const raw = opts.paramsFile ? readFileSync(opts.paramsFile, "utf8") : opts.params;
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw usageError(
    "--params must be a JSON object",
    `e.g. --params '{"operations":[{"label":{"labels":[{"label":"pets","examples":["cat"]}]}}]}'`,
  );
}

/** The task record of an inspect answer (its batch part, else its NEW-data part). */
export const recordOf = (i: { request?: TaskRecord; config?: TaskRecord }): TaskRecord | undefined => i.request ?? i.config;

/** Poll a task's batch until it ends, with a progress bar of resources on stderr. */
export async function waitTask(
  ctx: Context,
  opts: GlobalOptions,
  client: KboxClient,
  kbid: string,
  id: string,
): Promise<TaskRecord> {
  const bar = progress(ctx, { label: "resources", quiet: opts.quiet });
  for (;;) {
    const t = recordOf(await client.call(tk.inspectTask, { params: { kb_uuid: kbid, task_id: id } }));
    if (!t) throw new CliError(`task ${id} is gone`, EXIT.failure);
    bar.update(t.progress.done, t.progress.total || undefined);
    if (["completed", "stopped", "failed"].includes(t.status)) {
      bar.done();
      if (t.status === "failed") throw new CliError(`task ${id} failed: ${t.log.at(-1) ?? ""}`, EXIT.failure);
      return t;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A task as `kbox task show` prints it. */
export function printTask(ctx: Context, t: TaskRecord): void {
  printFields(ctx.io, [
    ["id", t.id],
    ["task", t.task.name],
    ["apply", t.apply],
    ["status", t.status],
    ["enabled", t.apply === "EXISTING" ? "-" : String(t.enabled)],
    ["method", t.method],
    ["progress", `${t.progress.done}/${t.progress.total}${t.apply === "EXISTING" ? "" : ` (+${t.progress.new_data} new)`}`],
    ["parameters", JSON.stringify(t.parameters)],
    ["log", t.log.slice(-5).join("\n")],
  ]);
}
