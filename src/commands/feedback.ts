import { Command } from "commander";
import type { Context, GlobalOptions } from "../cli/context.js";
import { CliError, EXIT } from "../cli/errors.js";
import { printJson } from "../cli/output.js";
import * as fb from "../client/routes/feedback.js";

/** Say whether an answer was good: it lands on the ask's activity row (by its learning id). */
export async function runFeedback(
  ctx: Context,
  ident: string,
  verdict: string,
  text: string[],
  o: { kb?: string } & GlobalOptions,
): Promise<void> {
  if (verdict !== "good" && verdict !== "bad") throw new CliError(`say good or bad, not ${JSON.stringify(verdict)}`, EXIT.usage);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const body = { ident, good: verdict === "good", task: "CHAT" as const, ...(text.length ? { feedback: text.join(" ") } : {}) };
  const res = await client.call(fb.sendFeedback, { params: { kbid }, body });
  if (o.json) return printJson(ctx.io, res);
  ctx.status(`feedback recorded on answer ${ident}`, o);
}

export function feedbackCommand(ctx: Context): Command {
  return new Command("feedback")
    .description("Say whether an answer was good or bad (by its learning id)")
    .argument("<learning-id>", "the answer's learning id (kbox ask prints it; the NUCLIA-LEARNING-ID header)")
    .argument("<good|bad>", "the verdict")
    .argument("[text...]", "why")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExamples:\n  kbox feedback 3f2a... bad "the date is wrong"\n  kbox feedback 3f2a... good')
    .action(async (ident: string, verdict: string, text: string[], _o, cmd: Command) =>
      runFeedback(ctx, ident, verdict, text, ctx.opts(cmd)),
    );
}
