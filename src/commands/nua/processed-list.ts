import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { intFlag } from "../../cli/options.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/nua-processing.js";

type Opts = {
  json?: boolean;
  quiet?: boolean;
  limit?: string;
  cursor?: string;
  kbid?: string;
  scheduled?: boolean;
  desc?: boolean;
};

export async function runNuaProcessedList(ctx: Context, o: Opts): Promise<void> {
  const res = await (await ctx.client(o)).call(api.listRequests, {
    query: {
      limit: intFlag("--limit", o.limit, 1, 1000),
      cursor: o.cursor,
      kbid: o.kbid,
      ...(o.scheduled ? { scheduled: "true" as const } : {}),
      ...(o.desc ? { sort_order: "desc" as const } : {}),
    } as never,
  });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "processing_id", get: (r: api.ProcessingRequest) => r.processing_id },
      { header: "state", get: (r) => (r.failed ? "failed" : r.completed ? "completed" : "scheduled") },
      { header: "kbid", get: (r) => r.kbid ?? "" },
      { header: "title", get: (r) => r.title ?? "" },
      { header: "sent", get: (r) => r.timestamp },
    ],
    res.results,
  );
  if (res.cursor) ctx.status(`more: --cursor ${res.cursor}`, o);
}

export function nuaProcessedListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List this client's processing requests")
    .option("--limit <n>", "page size (default 20)")
    .option("--cursor <c>", "the next page's cursor")
    .option("--kbid <label>", "only requests sent with this knowledge box label")
    .option("--scheduled", "only requests not completed yet")
    .option("--desc", "newest first")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox nua processed list --scheduled")
    .action(async (_o, c: Command) => runNuaProcessedList(ctx, ctx.opts(c)));
}
