import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable, styles } from "../../cli/output.js";
import type { FieldError } from "../../client/routes/common.js";
import * as resources from "../../client/routes/resources.js";
import { resourceRoute } from "./shared.js";

interface FieldRow {
  field: string;
  status: string;
  error?: FieldError;
}

/** Field rows of a resource read with `show=errors`: `{data: {texts: {id: {status, error}}}}`. */
function fieldRows(data: Record<string, Record<string, { status?: string; error?: FieldError }>> | undefined): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const [map, fields] of Object.entries(data ?? {})) {
    for (const [id, e] of Object.entries(fields)) rows.push({ field: `${map}/${id}`, status: e.status ?? "", error: e.error });
  }
  return rows.sort((a, b) => a.field.localeCompare(b.field));
}

export async function runResourceStatus(
  ctx: Context,
  ref: string,
  opts: { json?: boolean; kb?: string; quiet?: boolean },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const r = resourceRoute(resources.getResource, kbid, ref);
  const res = await (await ctx.client(opts)).call(r.def, { params: r.params, query: { show: ["basic", "errors"] } });
  if (opts.json) return printJson(ctx.io, res);
  const status = (res.metadata as { status?: string } | undefined)?.status ?? "";
  ctx.status(`${res.id} ${status}`, opts);
  const st = styles(ctx.io);
  const failed = (s: string) => s === "ERROR" || s === "EXPIRED" || s === "BLOCKED";
  const colour = (s: string) => (failed(s) ? st.red(s) : s === "PROCESSED" ? st.green(s) : s === "PENDING" ? st.yellow(s) : s);
  printTable(
    ctx.io,
    [
      { header: "field", get: (f: FieldRow) => f.field },
      { header: "status", get: (f) => colour(f.status) },
      { header: "error", get: (f) => (f.error ? `${f.error.code_str}: ${f.error.body}` : "") },
    ],
    fieldRows(res.data as never),
  );
}

export function resourceStatusCommand(ctx: Context): Command {
  return new Command("status")
    .description("Processing status of a resource and of each of its fields, with errors")
    .argument("<resource>", "resource id or slug")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox resource status my-slug\n  kbox resource status 0f1e… --json | jq .metadata.status",
    )
    .action(async (ref: string, _o, cmd: Command) => runResourceStatus(ctx, ref, ctx.opts(cmd)));
}
