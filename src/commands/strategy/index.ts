import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { ApiError } from "../../client/errors.js";
import type { ExtractConfig, SplitConfiguration } from "../../client/routes/strategies.js";
import * as api from "../../client/routes/strategies.js";

interface Opts {
  kb?: string;
  json?: boolean;
  extract?: boolean;
  name?: string;
  maxParagraph?: string;
  splitter?: string;
}

type Row = { id: string; kind: "split" | "extract"; name: string; split: SplitConfiguration | null | undefined };

/** The split configuration the add flags describe. */
function splitOf(o: Opts): Partial<SplitConfiguration> {
  const max = o.maxParagraph === undefined ? 0 : Number(o.maxParagraph);
  if (!Number.isInteger(max) || max < 0)
    throw usageError(`--max-paragraph must be a whole number of characters, not ${o.maxParagraph}`);
  if (o.splitter === "") throw usageError("--splitter cannot be empty");
  return { max_paragraph: max, ...(o.splitter ? { custom_split: 1 as const, manual_split: { splitter: o.splitter } } : {}) };
}

export async function runStrategyAdd(ctx: Context, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const split = splitOf(o);
  const name = o.name ?? "";
  const id = o.extract
    ? await client.call(api.addExtractStrategy, { params: { kbid }, body: { name, split: split as SplitConfiguration } })
    : await client.call(api.addSplitStrategy, { params: { kbid }, body: { name, ...split } });
  if (o.json) return printJson(ctx.io, id);
  ctx.io.stdout.write(`${id}\n`);
  ctx.status(`added ${o.extract ? "extract" : "split"} strategy ${name || id}`, o);
}

export async function runStrategyList(ctx: Context, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const [split, extract] = await Promise.all([
    client.call(api.listSplitStrategies, { params: { kbid } }),
    client.call(api.listExtractStrategies, { params: { kbid } }),
  ]);
  if (o.json) return printJson(ctx.io, { split_strategies: split, extract_strategies: extract });
  const rows: Row[] = [
    ...Object.entries(split).map(([id, c]): Row => ({ id, kind: "split", name: c.name, split: c })),
    ...Object.entries(extract).map(
      ([id, c]: [string, ExtractConfig]): Row => ({ id, kind: "extract", name: c.name, split: c.split }),
    ),
  ];
  printTable(
    ctx.io,
    [
      { header: "id", get: (r: Row) => r.id },
      { header: "kind", get: (r) => r.kind },
      { header: "name", get: (r) => r.name },
      { header: "max_paragraph", get: (r) => r.split?.max_paragraph || "" },
      {
        header: "splitter",
        get: (r) =>
          r.split?.custom_split === 1
            ? JSON.stringify(r.split.manual_split?.splitter ?? "")
            : r.split?.custom_split === 2
              ? "LLM (ignored)"
              : "",
      },
    ],
    rows,
  );
}

/** Run `fn` on the split strategy `id`, else on the extract strategy; a CLI error when neither exists. */
async function eitherKind<T>(id: string, split: () => Promise<T>, extract: () => Promise<T>): Promise<T> {
  try {
    return await split();
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
  }
  try {
    return await extract();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404)
      throw usageError(`no strategy ${id} in this knowledge box`, "kbox strategy list shows them");
    throw e;
  }
}

export async function runStrategyShow(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const params = { kbid, strategy_id: id };
  printJson(
    ctx.io,
    await eitherKind<unknown>(
      id,
      () => client.call(api.getSplitStrategy, { params }),
      () => client.call(api.getExtractStrategy, { params }),
    ),
  );
}

export async function runStrategyRemove(ctx: Context, id: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const params = { kbid, strategy_id: id };
  await eitherKind(
    id,
    () => client.call(api.deleteSplitStrategy, { params }),
    () => client.call(api.deleteExtractStrategy, { params }),
  );
  ctx.status(`removed ${id}`, o);
}

export function strategyCommand(ctx: Context): Command {
  const kb = ["--kb <kb>", "knowledge box slug or uuid"] as const;
  return new Command("strategy")
    .description("Split and extract strategies: how fields that name them are cut into paragraphs")
    .addCommand(
      new Command("add")
        .description("Add a split strategy (or an extract strategy with --extract); prints its id")
        .option(...kb)
        .option("--name <name>", "a name to recognise it by")
        .option("--max-paragraph <chars>", "largest paragraph, in characters (0: the default)")
        .option("--splitter <text>", "split on this literal separator instead of blank lines (a MANUAL split)")
        .option("--extract", "add an extract strategy whose split is given by the flags")
        .option("--json", "print the wire response")
        .addHelpText(
          "after",
          "\nExamples:\n  kbox strategy add --name faq --splitter '---'\n  kbox strategy add --max-paragraph 400\n  kbox add notes.txt --split-strategy $(kbox strategy add --splitter $'\\n\\n\\n')",
        )
        .action(async (_o, cmd: Command) => runStrategyAdd(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List split and extract strategies")
        .option(...kb)
        .option("--json", "print the wire responses")
        .addHelpText("after", "\nExamples:\n  kbox strategy list\n  kbox strategy list --json")
        .action(async (_o, cmd: Command) => runStrategyList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print one strategy (JSON)")
        .argument("<id>")
        .option(...kb)
        .addHelpText("after", "\nExample:\n  kbox strategy show 5b2c0e…")
        .action(async (id: string, _o, cmd: Command) => runStrategyShow(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("remove")
        .alias("rm")
        .description("Remove a strategy (refused while a field or sync configuration uses it)")
        .argument("<id>")
        .option(...kb)
        .addHelpText("after", "\nExample:\n  kbox strategy remove 5b2c0e…")
        .action(async (id: string, _o, cmd: Command) => runStrategyRemove(ctx, id, ctx.opts<Opts>(cmd))),
    );
}
