import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { collect } from "../../cli/options.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/labelsets.js";

interface Opts {
  kb?: string;
  title?: string;
  label?: string[];
  kind?: string[];
  single?: boolean;
  json?: boolean;
}

export async function runLabelsetSet(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body = {
    title: o.title ?? id,
    multiple: !o.single,
    kind: (o.kind ?? []).map((k) => k.toUpperCase()) as "RESOURCES"[],
    labels: (o.label ?? []).map((title) => ({ title })),
  };
  await (await ctx.client(o)).call(api.setLabelset, { params: { kbid, labelset: id }, body });
  ctx.status(`saved labelset ${id}`, o);
}

export async function runLabelsetList(ctx: Context, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const res = await (await ctx.client(o)).call(api.listLabelsets, { params: { kbid } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => r[0] },
      { header: "title", get: (r) => r[1].title ?? "" },
      { header: "labels", get: (r) => r[1].labels.map((l) => l.title).join(", ") },
    ],
    Object.entries(res.labelsets),
  );
}

export function labelsetCommand(ctx: Context): Command {
  const kb = ["--kb <kb>", "knowledge box slug or uuid"] as const;
  return new Command("labelset")
    .description("Labelsets: the labels a knowledge box offers")
    .addCommand(
      new Command("set")
        .description("Create or replace a labelset")
        .argument("<id>")
        .option(...kb)
        .option("--title <title>", "title")
        .option("--label <label>", "a label (repeatable)", collect)
        .option("--kind <kind>", "RESOURCES, PARAGRAPHS, ... (repeatable)", collect)
        .option("--single", "one label per resource")
        .addHelpText("after", "\nExample:\n  kbox labelset set topic --label finance --label ops --kind resources")
        .action(async (id: string, _o, cmd: Command) => runLabelsetSet(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List labelsets")
        .addHelpText("after", "\nExamples:\n  kbox labelset list --kb notes\n  kbox labelset list --json")
        .option(...kb)
        .option("--json", "print the wire response")
        .action(async (_o, cmd: Command) => runLabelsetList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print one labelset (JSON)")
        .addHelpText("after", "\nExample:\n  kbox labelset show topic --kb notes")
        .argument("<id>")
        .option(...kb)
        .action(async (id: string, _o, cmd: Command) => {
          const o = ctx.opts<Opts>(cmd);
          printJson(
            ctx.io,
            await (await ctx.client(o)).call(api.getLabelset, { params: { kbid: await ctx.kbid(o), labelset: id } }),
          );
        }),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a labelset")
        .addHelpText("after", "\nExample:\n  kbox labelset delete topic --yes")
        .argument("<id>")
        .option(...kb)
        .action(async (id: string, _o, cmd: Command) => {
          const o = ctx.opts<Opts>(cmd);
          await (await ctx.client(o)).call(api.deleteLabelset, { params: { kbid: await ctx.kbid(o), labelset: id } });
          ctx.status(`deleted labelset ${id}`, o);
        }),
    );
}
