import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printNdjson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/activity.js";
import { ndjson } from "../../client/transport.js";
import { eventOf, type FilterOptions, filterFlags, filtersOf, monthOf, showOf } from "./shared.js";

export interface ActivityListOptions extends FilterOptions {
  kb?: string;
  month?: string;
  show?: string;
  limit?: string;
  after?: string;
}

const DEFAULT_SHOW: Record<string, string[]> = {
  ask: ["user_id", "client_type", "question", "status", "feedback_good"],
  chat: ["user_id", "client_type", "question", "status", "feedback_good"],
  search: ["user_id", "client_type", "question", "resources_count"],
  suggest: ["user_id", "question"],
};

const cell = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** One page of activity rows: a table on a TTY, TSV piped, the wire's NDJSON with --json. */
export async function runActivityList(
  ctx: Context,
  event: string | undefined,
  o: ActivityListOptions & GlobalOptions,
): Promise<void> {
  const ev = eventOf(event);
  const body = {
    year_month: monthOf(o.month),
    filters: filtersOf(o),
    show: showOf(o.show, DEFAULT_SHOW[ev] ?? ["user_id", "resource_id"]),
    pagination: { limit: Number(o.limit ?? 50), ...(o.after ? { starting_after: Number(o.after) } : {}) },
  };
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const res = await client.exchange(api.queryActivity, {
    params: { kbid, event_type: ev },
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const rows: Record<string, unknown>[] = [];
  for await (const r of ndjson(res)) rows.push(r as Record<string, unknown>);
  if (o.json) {
    for (const r of rows) printNdjson(ctx.io, r);
    return;
  }
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  printTable(
    ctx.io,
    cols.map((c) => ({ header: c, get: (r: Record<string, unknown>) => cell(r[c]) })),
    rows,
  );
  if (!rows.length) ctx.status(`no ${ev} events in ${body.year_month}`, o);
  if (res.headers["has-more"] === "true") ctx.status(`more rows: --after ${rows.at(-1)?.id}`, o);
}

export function activityListCommand(ctx: Context): Command {
  return filterFlags(
    new Command("list")
      .alias("ls")
      .description("List activity events of a month (searches, asks, changes, processing)")
      .argument(
        "[event]",
        "event type: ask, chat, search, suggest, new, modified, deleted, visited, processed, indexed, ... (default ask)",
      )
      .option("--kb <kb>", "knowledge box slug or uuid"),
  )
    .option("--limit <n>", "rows at most (default 50)")
    .option("--after <id>", "rows after this id (the next page)")
    .option("--json", "print the wire's NDJSON rows")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox activity list ask --where user_id=ana --show question,answer\n  kbox activity list search --filter '{"question":{"ilike":"%invoice%"}}'\n  kbox activity list ask --meta team=red --json | jq -r .question`,
    )
    .action(async (event: string | undefined, _o, cmd: Command) =>
      runActivityList(ctx, event, ctx.opts<ActivityListOptions>(cmd)),
    );
}
