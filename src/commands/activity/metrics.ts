import { Command } from "commander";
import { drawChart } from "../../cli/chart.js";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/activity.js";
import { aggregationOf, sinceOf } from "./shared.js";

export interface MetricsOptions {
  kb?: string;
  since?: string;
  until?: string;
  by?: string;
}

/** Bucket labels short enough for a chart: hours keep their time, days their date. */
export function label(ts: string, by: string): string {
  if (by === "hour") return ts.slice(0, 13).replace("T", " ");
  if (by === "month" || by === "quarter") return ts.slice(0, 7);
  if (by === "year" || by === "millennium") return ts.slice(0, by === "year" ? 4 : 10);
  return ts.slice(0, 10);
}

/** Searches, asks and chats per bucket: a chart on a TTY, TSV piped, the wire with --json. */
export async function runActivityMetrics(ctx: Context, o: MetricsOptions & GlobalOptions): Promise<void> {
  const aggregation = aggregationOf(o.by);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const query = { from: sinceOf(o.since), ...(o.until ? { to: sinceOf(o.until) } : {}), aggregation };
  const points = await client.call(api.activityMetrics, { params: { kbid }, query });
  if (o.json) return printJson(ctx.io, points);
  if (ctx.io.stdout.isTTY) {
    drawChart(
      ctx.io,
      points.map((p) => label(p.timestamp, aggregation)),
      [
        { name: "searches", values: points.map((p) => p.search) },
        { name: "asks", values: points.map((p) => p.ask) },
      ],
    );
    return;
  }
  printTable(
    ctx.io,
    [
      { header: "timestamp", get: (p) => p.timestamp },
      { header: "search", get: (p) => p.search, right: true },
      { header: "ask", get: (p) => p.ask, right: true },
      { header: "chat", get: (p) => p.chat, right: true },
    ],
    points,
  );
}

export function activityMetricsCommand(ctx: Context): Command {
  return new Command("metrics")
    .description("Searches and asks over time (a chart on a terminal)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--since <when>", "start: 24h, 7d, 2w or a date (default 7d)")
    .option("--until <when>", "end (default now)")
    .option("--by <bucket>", "hour, day, week, month, quarter, year or millennium (one point); default day")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox activity metrics --since 24h --by hour\n  kbox activity metrics --since 30d | sort -k2 -n",
    )
    .action(async (_o, cmd: Command) => runActivityMetrics(ctx, ctx.opts<MetricsOptions>(cmd)));
}
