import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { collect, parseLabels } from "../../cli/options.js";
import { printJson } from "../../cli/output.js";
import * as resources from "../../client/routes/resources.js";
import { resourceRoute } from "./shared.js";

export interface ResourceUpdateOptions {
  title?: string;
  summary?: string;
  slug?: string;
  label?: string[];
  hidden?: boolean;
  json?: boolean;
  kb?: string;
  quiet?: boolean;
}

export async function runResourceUpdate(ctx: Context, ref: string, opts: ResourceUpdateOptions): Promise<void> {
  const body: resources.UpdateResource = { title: opts.title, summary: opts.summary, slug: opts.slug, hidden: opts.hidden };
  const classifications = parseLabels(opts.label);
  if (classifications) body.usermetadata = { classifications };
  if (Object.values(body).every((v) => v === undefined))
    throw usageError("nothing to update", "pass --title, --summary, --slug, --label or --hidden");
  const kbid = await ctx.kbid(opts);
  const r = resourceRoute(resources.updateResource, kbid, ref);
  const res = await (await ctx.client(opts)).call(r.def, { params: r.params, body });
  if (opts.json) return printJson(ctx.io, res);
  ctx.status(`updated ${ref} (seqid ${res.seqid})`, opts);
}

export function resourceUpdateCommand(ctx: Context): Command {
  return new Command("update")
    .description("Change a resource's title, summary, slug, labels or visibility")
    .argument("<resource>", "resource id or slug")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--title <title>", "new title")
    .option("--summary <text>", "new summary")
    .option("--slug <slug>", "new slug")
    .option("--label <labelset/label>", "replace the labels (repeatable)", collect)
    .option("--hidden", "hide it from search")
    .option("--no-hidden", "show it in search")
    .option("--json", "print the wire response")
    .addHelpText("after", '\nExample:\n  kbox resource update my-slug --title "Better title" --label topic/ml')
    .action(async (ref: string, _o, cmd: Command) => runResourceUpdate(ctx, ref, ctx.opts<ResourceUpdateOptions>(cmd)));
}
