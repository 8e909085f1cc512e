import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { collect, intFlag } from "../cli/options.js";
import { printJson, printTable } from "../cli/output.js";
import * as api from "../client/routes/search.js";

export interface CatalogOptions {
  kb?: string;
  match?: string;
  status?: string;
  label?: string[];
  page?: string;
  size?: string;
  sort?: string;
  json?: boolean;
}

export async function runCatalog(ctx: Context, query: string | undefined, o: CatalogOptions): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body: api.CatalogBody = {};
  if (query) body.query = { query, match: (o.match ?? "words") as "words" };
  if (o.status) body.with_status = o.status.toUpperCase() as "PROCESSED";
  if (o.label?.length) body.filters = o.label.map((l) => `/l/${l}`);
  if (o.page !== undefined) body.page_number = intFlag("--page", o.page, 0);
  if (o.size !== undefined) body.page_size = intFlag("--size", o.size, 1, 200);
  if (o.sort) {
    const [field, order] = o.sort.split(":");
    body.sort = { field: field as "created", order: (order ?? "desc") as "desc" };
  }
  const res = await (await ctx.client(o)).call(api.catalog, { params: { kbid }, body });
  if (o.json) return printJson(ctx.io, res);
  const rows = Object.values(res.resources) as Record<string, unknown>[];
  printTable(
    ctx.io,
    [
      { header: "id", get: (r) => String(r.id) },
      { header: "slug", get: (r) => (r.slug as string) ?? "" },
      { header: "title", get: (r) => (r.title as string) ?? "" },
      { header: "status", get: (r) => (r.metadata as { status?: string } | undefined)?.status ?? "" },
      { header: "created", get: (r) => (r.created as string) ?? "" },
    ],
    rows,
  );
  if (res.fulltext?.next_page) ctx.status(`more: --page ${(Number(o.page ?? 0) || 0) + 1}`);
}

export function catalogCommand(ctx: Context): Command {
  return new Command("catalog")
    .description("List resources by title, status and labels")
    .argument("[title]", "words of the title (the last may be a prefix)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--match <mode>", "words, fuzzy, starts_with, ends_with, contains, exact", "words")
    .option("--status <status>", "PENDING, PROCESSED, ERROR, EMPTY, BLOCKED or EXPIRED")
    .option("--label <labelset/label>", "only resources with this label (repeatable)", collect)
    .option("--sort <field[:order]>", "created, modified or title; asc or desc")
    .option("--page <n>", "page number, from 0")
    .option("--size <n>", "page size (1-200)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox catalog report --status processed\n  kbox catalog --label topic/finance --sort title:asc",
    )
    .action(async (title: string | undefined, _o, cmd: Command) => runCatalog(ctx, title, ctx.opts<CatalogOptions>(cmd)));
}
