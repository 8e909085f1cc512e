import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { ApiError } from "../../client/errors.js";
import * as bk from "../../client/routes/backups.js";
import { uploadArchive } from "../backup/shared.js";

export interface KbImportOptions extends GlobalOptions {
  slug?: string;
  title?: string;
  into?: string;
}

/** Import an archive as a new knowledge box, or into an existing empty one (--into). */
export async function runKbImport(ctx: Context, file: string, opts: KbImportOptions): Promise<void> {
  const client = await ctx.client(opts);
  let res: { kbid: string; slug: string };
  if (opts.into) {
    const kbid = await ctx.kbid({ ...opts, kb: opts.into });
    res = await uploadArchive(client, bk.importIntoKb, { params: { kbid } }, file);
  } else {
    try {
      res = await uploadArchive(client, bk.importNewKb, { query: { slug: opts.slug, title: opts.title } }, file);
    } catch (e) {
      // The archived slug (or --slug) is in use: say which, and the two ways out.
      if (e instanceof ApiError && e.status === 419)
        throw new CliError(
          String(e.detail),
          EXIT.failure,
          "import it under another slug with --slug <new-slug>, or into an empty box with --into <kb>",
        );
      throw e;
    }
  }
  if (opts.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.kbid}\n`);
  ctx.status(`imported into knowledge box ${res.slug}`, opts);
}

export function kbImportCommand(ctx: Context): Command {
  return new Command("import")
    .description("Import a knowledge box archive (from `kbox kb export` or a backup)")
    .argument("<file>", ".tar.gz archive")
    .option("--slug <slug>", "slug of the new knowledge box (default: the archived slug)")
    .option("--title <title>", "title of the new knowledge box (default: the archived title)")
    .option("--into <kb>", "import into this existing, empty knowledge box instead")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox kb import notes.tar.gz --slug notes2\n  kbox kb import notes.tar.gz --into empty-kb",
    )
    .action(async (file: string, _o, cmd: Command) => runKbImport(ctx, file, ctx.opts<KbImportOptions>(cmd)));
}
