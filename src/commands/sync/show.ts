import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printFields, printJson } from "../../cli/output.js";
import * as sync from "../../client/routes/sync.js";
import { resolveConfig, sourceOf } from "./shared.js";

export async function runSyncShow(ctx: Context, ref: string, opts: GlobalOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const c = await resolveConfig(client, kbid, ref);
  if (opts.json) return printJson(ctx.io, c);
  const last = (await client.call(sync.listJobs, { params: { kbid, config_id: c.id }, query: { limit: 1 } })).items[0];
  printFields(ctx.io, [
    ["id", c.id],
    ["name", c.name],
    ["source", sourceOf(c)],
    ["labels", c.labels.map((l) => `${l.labelset}/${l.label}`).join(", ")],
    ["filter", c.file_filter],
    ["ignore", c.ignore.join(", ")],
    ["every", c.sync_interval_minutes ? `${c.sync_interval_minutes} minutes` : ""],
    ["last run", c.last_sync_run ?? "never"],
    ["last job", last ? `${last.id} ${last.status} (${last.trigger}) ${JSON.stringify(last.stats)}` : ""],
  ]);
}

export function syncShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a sync configuration and its last job")
    .argument("<config>", "configuration id or name")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExample:\n  kbox sync show notes")
    .action(async (ref: string, _o, cmd: Command) => runSyncShow(ctx, ref, ctx.opts(cmd)));
}
