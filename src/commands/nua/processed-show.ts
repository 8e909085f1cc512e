import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as api from "../../client/routes/nua-processing.js";

interface FieldOut {
  status: string;
  text?: string;
  paragraphs?: { vectors?: Record<string, number[]> }[];
}

/** A request's status, then one row per field: status, characters, paragraphs, vectorsets. */
export function printRecord(ctx: Context, r: api.ProcessingRequest): void {
  const state = r.failed ? "failed" : r.completed ? "completed" : "scheduled";
  ctx.io.stderr.write(`${r.processing_id}  ${state}${r.title ? `  ${r.title}` : ""}\n`);
  const fields = ((r.response as { fields?: Record<string, FieldOut> } | undefined)?.fields ?? {}) as Record<string, FieldOut>;
  printTable(
    ctx.io,
    [
      { header: "field", get: ([k]) => k },
      { header: "status", get: ([, f]) => f.status },
      { header: "chars", get: ([, f]) => f.text?.length ?? 0, right: true },
      { header: "paragraphs", get: ([, f]) => f.paragraphs?.length ?? 0, right: true },
      { header: "vectors", get: ([, f]) => Object.keys(f.paragraphs?.[0]?.vectors ?? {}).join(",") },
    ],
    Object.entries(fields),
  );
}

export async function runNuaProcessedShow(ctx: Context, id: string, o: { json?: boolean }): Promise<void> {
  const res = await (await ctx.client(o)).call(api.getRequest, { params: { processing_id: id } });
  if (o.json) return printJson(ctx.io, res);
  printRecord(ctx, res);
}

export function nuaProcessedShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show one processing request and its processed record")
    .argument("<processing_id>", "processing id")
    .option("--json", "print the wire response (the full record: text, paragraphs, vectors)")
    .addHelpText("after", "\nExample:\n  kbox nua processed show 6f1e... --json | jq '.response.fields'")
    .action(async (id: string, _o, c: Command) => runNuaProcessedShow(ctx, id, ctx.opts(c)));
}
