import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/activity.js";
import { monthOf } from "../activity/shared.js";

export interface QualityScoresOptions {
  kb?: string;
  month?: string;
  status?: string;
  feedback?: string;
  below?: string;
  limit?: string;
}

const avg = (xs: number[]) => (xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2) : "");
const short = (s: string | null, n: number) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : (s ?? ""));

/** A month's answers and their quality scores (0–5): answer relevance, context relevance and groundedness. */
export async function runQualityScores(ctx: Context, o: QualityScoresOptions & GlobalOptions): Promise<void> {
  const status = o.status?.toUpperCase();
  if (status && !["SUCCESS", "ERROR", "NO_CONTEXT"].includes(status))
    throw new CliError("--status must be success, error or no_context", EXIT.usage);
  if (o.feedback && !["good", "bad"].includes(o.feedback)) throw new CliError("--feedback must be good or bad", EXIT.usage);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const body = {
    month: monthOf(o.month),
    ...(status ? { status: status as "SUCCESS" } : {}),
    ...(o.feedback ? { feedback_good: o.feedback === "good" } : {}),
    ...(o.below
      ? { context_relevance: { value: Number(o.below), operation: "lt" as const, aggregation: "average" as const } }
      : {}),
    pagination: { limit: Number(o.limit ?? 50) },
  };
  const res = await client.call(api.remiQuery, { params: { kbid }, body });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => r.id },
      { header: "date", get: (r) => r.date.slice(0, 19).replace("T", " ") },
      { header: "question", get: (r) => short(r.question, 40) },
      { header: "answer", get: (r) => r.remi?.answer_relevance.score ?? "", right: true },
      { header: "context", get: (r) => avg(r.remi?.context_relevance ?? []), right: true },
      { header: "grounded", get: (r) => avg(r.remi?.groundedness ?? []), right: true },
    ],
    res.data,
  );
  if (!res.data.length) ctx.status(`no answers in ${body.month}`, o);
  if (res.has_more) ctx.status("more answers: raise --limit", o);
}

export function qualityScoresCommand(ctx: Context): Command {
  return new Command("scores")
    .description("Answers of a month with their quality scores (0-5)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--month <YYYY-MM>", "the month (default: this month)")
    .option("--status <s>", "success, error or no_context")
    .option("--feedback <good|bad>", "only answers with this feedback")
    .option("--below <score>", "only answers whose average context relevance is below this")
    .option("--limit <n>", "answers at most (default 50)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox quality scores --below 2\n  kbox quality scores --feedback bad --json | jq '.data[].question'",
    )
    .action(async (_o, cmd: Command) => runQualityScores(ctx, ctx.opts<QualityScoresOptions>(cmd)));
}
