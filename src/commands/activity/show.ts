import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printFields, printJson } from "../../cli/output.js";
import * as api from "../../client/routes/activity.js";
import { eventOf } from "./shared.js";

/** One event, every member (its month is in its id). */
export async function runActivityShow(
  ctx: Context,
  id: string,
  o: { kb?: string; event?: string } & GlobalOptions,
): Promise<void> {
  if (!/^\d+$/.test(id)) throw new CliError(`an event id is a number, not ${JSON.stringify(id)}`, EXIT.usage);
  const n = Number(id);
  const month = new Date(Math.floor(n / 1000)).toISOString().slice(0, 7);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const events = o.event ? [eventOf(o.event)] : api.EVENT_TYPES;
  for (const event_type of events) {
    const body = { year_month: month, filters: { id: { eq: n } }, show: "all" as const, pagination: { limit: 1 } };
    for await (const row of client.stream(api.queryActivity, { params: { kbid, event_type }, body })) {
      const r = row as Record<string, unknown>;
      if (o.json) return printJson(ctx.io, r);
      printFields(ctx.io, [["event", event_type], ...Object.entries(r).filter(([, v]) => v !== null && v !== undefined)]);
      return;
    }
  }
  throw new CliError(`no event ${id} in ${month}`, EXIT.failure, "list them with `kbox activity list <event>`");
}

export function activityShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show one activity event with every member")
    .argument("<id>", "the event id (from `kbox activity list`)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--event <type>", "its event type (faster; default: look in every type)")
    .option("--json", "print the row as the wire has it")
    .addHelpText("after", "\nExamples:\n  kbox activity show 1764230400123000 --event ask")
    .action(async (id: string, _o, cmd: Command) => runActivityShow(ctx, id, ctx.opts(cmd)));
}
