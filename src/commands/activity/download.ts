import { writeFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import * as api from "../../client/routes/activity.js";
import { jsonOf, readAll } from "../../client/transport.js";
import { eventOf, type FilterOptions, filterFlags, filtersOf, monthOf, showOf } from "./shared.js";

export interface ActivityDownloadOptions extends FilterOptions {
  kb?: string;
  month?: string;
  show?: string;
  format?: string;
  output?: string;
}

const FORMATS: Record<string, (typeof api.DOWNLOAD_FORMATS)[number]> = { csv: "text/csv", ndjson: "application/x-ndjson" };

/** Request a download, wait for its file, and write it to stdout or --output. */
export async function runActivityDownload(
  ctx: Context,
  event: string | undefined,
  o: ActivityDownloadOptions & GlobalOptions,
): Promise<void> {
  const format = FORMATS[o.format ?? "ndjson"];
  if (!format) throw new CliError("--format must be csv or ndjson", EXIT.usage);
  const event_type = eventOf(event);
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const body = { year_month: monthOf(o.month), filters: filtersOf(o), show: showOf(o.show, []), notify_via_email: false };
  let rec = await client.call(api.requestActivityDownload, { params: { kbid, event_type }, body, headers: { accept: format } });
  ctx.status(`download ${rec.request_id} requested`, o);
  for (let i = 0; !rec.download_url; i++) {
    if (i > 600) throw new CliError(`download ${rec.request_id} is not ready after a minute`, EXIT.failure);
    await new Promise((r) => setTimeout(r, 100));
    rec = await client.call(api.activityDownloadStatus, { params: { kbid, request_id: rec.request_id } });
  }
  const res = await client.exchange(api.activityDownloadFile, { params: { kbid, request_id: rec.request_id } });
  if (res.status >= 400) await jsonOf(res);
  const data = await readAll(res.body);
  if (o.output) {
    await writeFile(o.output, data);
    ctx.status(`${rec.rows ?? "?"} rows written to ${o.output}`, o);
  } else ctx.io.stdout.write(data.toString("utf8"));
}

export function activityDownloadCommand(ctx: Context): Command {
  return filterFlags(
    new Command("download")
      .description("Download a month of activity as NDJSON or CSV")
      .argument("[event]", "event type (default ask)")
      .option("--kb <kb>", "knowledge box slug or uuid"),
  )
    .option("--format <csv|ndjson>", "file format (default ndjson)")
    .option("-o, --output <file>", "write to a file instead of stdout")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox activity download ask --month 2026-11 --format csv -o asks.csv\n  kbox activity download search --show all | jq -r .question",
    )
    .action(async (event: string | undefined, _o, cmd: Command) =>
      runActivityDownload(ctx, event, ctx.opts<ActivityDownloadOptions>(cmd)),
    );
}
