import { readFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT, usageError } from "../../cli/errors.js";
import { collect, parseLabels } from "../../cli/options.js";
import { printJson } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import * as resources from "../../client/routes/resources.js";
import { type AddResult, FAILED, waitFor } from "../add.js";

export interface ResourceCreateOptions {
  title?: string;
  summary?: string;
  slug?: string;
  text?: string;
  textFile?: string;
  format?: string;
  label?: string[];
  hidden?: boolean;
  body?: string;
  json?: boolean;
  kb?: string;
  quiet?: boolean;
  wait?: boolean;
}

/** Build the create payload from flags, or take a whole wire payload from `--body file|-`. */
export async function createPayload(ctx: Context, opts: ResourceCreateOptions): Promise<resources.CreateResource> {
  if (opts.body) {
    const text = opts.body === "-" ? await readStdin(ctx) : await readFile(opts.body, "utf8");
    try {
      return JSON.parse(text);
    } catch (e) {
      throw usageError(`--body is not JSON: ${(e as Error).message}`);
    }
  }
  const body = opts.textFile ? await readFile(opts.textFile, "utf8") : opts.text;
  const payload: resources.CreateResource = {
    title: opts.title,
    summary: opts.summary,
    slug: opts.slug,
    hidden: opts.hidden,
  };
  const classifications = parseLabels(opts.label);
  if (classifications) payload.usermetadata = { classifications };
  if (body !== undefined) payload.texts = { text: { body, format: (opts.format ?? "PLAIN") as "PLAIN" } };
  return payload;
}

export async function runResourceCreate(ctx: Context, opts: ResourceCreateOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const payload = await createPayload(ctx, opts);
  const client = await ctx.client(opts);
  const res = await client.call(resources.createResource, { params: { kbid }, body: payload });
  if (opts.json) printJson(ctx.io, res);
  else ctx.io.stdout.write(`${res.uuid}\n`);
  if (!opts.wait) return;
  // As `kbox add --wait`: follow processing; the outcome on stderr, exit 1 when it failed.
  const [r] = [{ source: payload.title ?? res.uuid, resource: res.uuid, status: "PENDING" } as AddResult];
  await waitFor(ctx, client, kbid, [r], opts.quiet);
  if (FAILED.has(r.status)) throw new CliError(`${res.uuid} ${r.status}${r.error ? `: ${r.error}` : ""}`, EXIT.failure);
  ctx.status(`${res.uuid} ${r.status}`, opts);
}

export function resourceCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a resource from flags or from a wire payload")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--title <title>", "title")
    .option("--summary <text>", "summary")
    .option("--slug <slug>", "slug")
    .option("--text <text>", "a text field `text` with this body")
    .option("--text-file <file>", "a text field `text` with this file's content")
    .option("--format <format>", "text format: PLAIN, MARKDOWN, HTML, RST, JSON, ...", "PLAIN")
    .option("--label <labelset/label>", "classification (repeatable)", collect)
    .option("--hidden", "create it hidden")
    .option("--body <file|->", "the whole create payload as JSON (file or - for stdin)")
    .option("--wait", "follow processing until the resource is indexed (exit 1 when it failed)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      '\nExamples:\n  kbox resource create --title "Notes" --text "Searchable as soon as this returns." --wait\n  kbox resource create --title "Meeting" --text "We agreed to ship on Friday." --label topic/planning\n  echo \'{"title":"T","texts":{"body":{"body":"hi"}}}\' | kbox resource create --body -',
    )
    .action(async (_o, cmd: Command) => runResourceCreate(ctx, ctx.opts<ResourceCreateOptions>(cmd)));
}
