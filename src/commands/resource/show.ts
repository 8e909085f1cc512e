import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { collect } from "../../cli/options.js";
import { printFields, printJson } from "../../cli/output.js";
import * as resources from "../../client/routes/resources.js";
import { resourceRoute } from "./shared.js";

export async function runResourceShow(
  ctx: Context,
  ref: string,
  opts: { show?: string[]; json?: boolean; kb?: string },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const show = (opts.show?.length ? opts.show : ["basic", "origin", "errors"]) as resources.Show[];
  const r = resourceRoute(resources.getResource, kbid, ref);
  const res = await (await ctx.client(opts)).call(r.def, { params: r.params, query: { show } });
  if (opts.json) return printJson(ctx.io, res);
  const meta = res.metadata as { status?: string; language?: string } | undefined;
  printFields(ctx.io, [
    ["id", res.id],
    ["slug", res.slug],
    ["title", res.title],
    ["status", meta?.status],
    ["language", meta?.language],
    ["created", res.created],
    ["modified", res.modified],
    [
      "labels",
      (res.usermetadata as { classifications?: { labelset: string; label: string }[] } | undefined)?.classifications
        ?.map((c) => `${c.labelset}/${c.label}`)
        .join(", "),
    ],
    ["origin", res.origin],
    ["fields", res.data],
  ]);
}

export function resourceShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a resource by id or slug")
    .argument("<resource>", "resource id or slug")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--show <part>", "basic, origin, extra, relations, values, extracted, errors, security (repeatable)", collect)
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox resource show my-slug\n  kbox resource show 0f1e… --show values --show extracted --json",
    )
    .action(async (ref: string, _o, cmd: Command) => runResourceShow(ctx, ref, ctx.opts(cmd)));
}
