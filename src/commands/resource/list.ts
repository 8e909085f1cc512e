import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { intFlag } from "../../cli/options.js";
import { printJson, printTable } from "../../cli/output.js";
import * as resources from "../../client/routes/resources.js";

export async function runResourceList(
  ctx: Context,
  opts: { page: string; size: string; json?: boolean; kb?: string },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const res = await (await ctx.client(opts)).call(resources.listResources, {
    params: { kbid },
    query: { page: intFlag("--page", opts.page, 0)!, size: intFlag("--size", opts.size, 1, 200)! },
  });
  if (opts.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => r.id },
      { header: "slug", get: (r) => r.slug as string },
      { header: "status", get: (r) => (r.metadata as { status?: string } | undefined)?.status },
      { header: "title", get: (r) => r.title as string },
    ],
    res.resources,
  );
  if (!res.pagination.last) ctx.status(`more: --page ${res.pagination.page + 1}`);
}

export function resourceListCommand(ctx: Context): Command {
  return new Command("list")
    .alias("ls")
    .description("List resources, a page at a time")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--page <n>", "page number, from 0", "0")
    .option("--size <n>", "page size (1-200)", "20")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox resource list\n  kbox resource list --size 200 --json | jq -r '.resources[].id'")
    .action(async (_o, cmd: Command) => runResourceList(ctx, ctx.opts(cmd)));
}
