import { Command } from "commander";
import { drawChart } from "../../cli/chart.js";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/activity.js";
import { label, type MetricsOptions } from "../activity/metrics.js";
import { aggregationOf, sinceOf } from "../activity/shared.js";

const NAMES = ["answer_relevance", "context_relevance", "groundedness"];

/** Average quality scores per bucket: a chart on a TTY, TSV piped, the wire with --json. */
export async function runQualityTrend(ctx: Context, o: MetricsOptions & GlobalOptions): Promise<void> {
  const aggregation = aggregationOf(o.by);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const query = { from: sinceOf(o.since), ...(o.until ? { to: sinceOf(o.until) } : {}), aggregation };
  const points = await client.call(api.remiScores, { params: { kbid }, query });
  if (o.json) return printJson(ctx.io, points);
  const of = (p: (typeof points)[number], name: string) => p.metrics.find((m) => m.name === name)?.average ?? 0;
  if (ctx.io.stdout.isTTY) {
    drawChart(
      ctx.io,
      points.map((p) => label(p.timestamp, aggregation)),
      NAMES.map((n) => ({ name: n.replace("_", " "), values: points.map((p) => of(p, n)), max: 5 })),
      { average: true },
    );
    return;
  }
  printTable(
    ctx.io,
    [
      { header: "timestamp", get: (p: (typeof points)[number]) => p.timestamp },
      ...NAMES.map((n) => ({ header: n, get: (p: (typeof points)[number]) => of(p, n), right: true })),
    ],
    points,
  );
}

export function qualityTrendCommand(ctx: Context): Command {
  return new Command("trend")
    .description("Average answer quality over time (a chart on a terminal)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--since <when>", "start: 24h, 7d, 2w or a date (default 7d)")
    .option("--until <when>", "end (default now)")
    .option("--by <bucket>", "hour, day, week, month, quarter, year or millennium; default day")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox quality trend --since 30d --by week")
    .action(async (_o, cmd: Command) => runQualityTrend(ctx, ctx.opts<MetricsOptions>(cmd)));
}
