import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { printJson, printNdjson } from "../../cli/output.js";
import type { KboxClient } from "../../client/client.js";
import { uploadFileToProcess } from "../../client/nua.js";
import * as api from "../../client/routes/nua-processing.js";
import { printRecord } from "./processed-show.js";

export interface ProcessOptions {
  json?: boolean;
  quiet?: boolean;
  title?: string;
  kbid?: string;
  label?: string[];
  webhook?: string;
  model?: string;
  wait?: boolean;
  follow?: boolean;
}

/** What the argument is: a file that exists, a URL, or else text. */
async function payloadOf(client: KboxClient, what: string, o: ProcessOptions): Promise<api.PushInput> {
  const base = {
    title: o.title,
    labels: o.label ?? [],
    ...(o.kbid ? { kbid: o.kbid } : {}),
    ...(o.webhook ? { webhook_config: { uri: o.webhook } } : {}),
    ...(o.model ? { learning_config: { semantic_models: [o.model] } } : {}),
  };
  if (/^https?:\/\//i.test(what)) return { ...base, linkfield: { link: { link: what } } };
  if (existsSync(what) && statSync(what).isFile()) {
    const name = basename(what);
    const token = await uploadFileToProcess(client, what);
    return { ...base, title: o.title ?? name, filefield: { file: token } };
  }
  if (!what.trim()) throw usageError("nothing to process: give a file, a URL or a text");
  return { ...base, textfield: { text: { body: what, format: 0 } } };
}

/** `kbox nua process`: send a file, URL or text to process; --wait for the record, --follow for its events. */
export async function runNuaProcess(ctx: Context, what: string, o: ProcessOptions): Promise<void> {
  const client = await ctx.client(o);
  const pushed = await client.call(api.pushV1, { body: await payloadOf(client, what, o) });
  if (!o.wait && !o.follow) {
    if (o.json) return printJson(ctx.io, pushed);
    ctx.io.stdout.write(`${pushed.processing_id}\n`);
    return ctx.status("sent to process; follow it with `kbox nua processed show <id>`", o);
  }
  let last: api.ProcessingEvent | undefined;
  for await (const ev of client.stream(api.streamResults, { params: { processing_id: pushed.processing_id } })) {
    const e = ev as api.ProcessingEvent & Record<string, unknown>;
    last = e;
    if (o.follow && o.json) printNdjson(ctx.io, e);
    else if (o.follow && e.type === "progress") ctx.status(`processed: ${e.paragraphs} paragraph(s), ${e.embedded} embedded`, o);
    else if (o.follow && e.type === "scheduled") ctx.status(`scheduled ${e.processing_id}`, o);
  }
  if (!last || (last.type !== "completed" && last.type !== "failed"))
    throw new CliError("the stream ended before the result", EXIT.failure);
  if (!(o.follow && o.json)) {
    const { type: _t, ...record } = last;
    if (o.json) printJson(ctx.io, record);
    else printRecord(ctx, record as api.ProcessingRequest);
  }
  if (last.type === "failed") throw new CliError("processing failed for some fields", EXIT.partial);
}

export function nuaProcessCommand(ctx: Context): Command {
  return new Command("process")
    .description("Send a file, a URL or a text to the understanding API to process (extract, split, embed)")
    .argument("<file|url|text>", "a file path, an http(s) URL, or the text itself")
    .option("--title <title>", "title (a file's name by default)")
    .option("--kbid <label>", "your own knowledge box label, stored with the request")
    .option("--label <label>", "a label (labelset/label), repeatable", (v: string, acc: string[] = []) => [...acc, v])
    .option("--webhook <url>", "POST the result there (signed) instead of the client's webhook")
    .option("--model <name>", "semantic model of the client's internal box (its first request decides)")
    .option("--wait", "wait for the result and print it")
    .option("--follow", "print progress events as they come (server-sent events), then the result")
    .option("--json", "print the wire response (with --follow: every event as NDJSON)")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox nua process report.pdf --wait\n  kbox nua process 'Some text to split and embed' --follow --json",
    )
    .action(async (what: string, _o, c: Command) => runNuaProcess(ctx, what, ctx.opts(c)));
}
