import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import { exportTo } from "../backup/shared.js";

/** Export a knowledge box to an archive file (the backup format). */
export async function runKbExport(ctx: Context, opts: GlobalOptions & { out?: string }): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const file = opts.out ?? `${opts.kb ?? kbid}.kbox.tar.gz`;
  const res = await exportTo(ctx, opts, kbid, file);
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.path}\n`);
  ctx.status(`exported ${res.size} bytes`, opts);
}

export function kbExportCommand(ctx: Context): Command {
  return new Command("export")
    .description("Export a knowledge box to a .tar.gz archive")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("-o, --out <file>", "archive file (default <kb>.kbox.tar.gz)")
    .option("--json", "print the result as JSON")
    .addHelpText("after", "\nExample:\n  kbox kb export --kb notes --out notes.tar.gz")
    .action(async (_o, cmd: Command) => runKbExport(ctx, ctx.opts(cmd)));
}
