import { existsSync } from "node:fs";
import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import * as bk from "../../client/routes/backups.js";
import { ACCOUNT, uploadArchive } from "./shared.js";

export interface BackupRestoreOptions extends GlobalOptions {
  slug?: string;
  title?: string;
}

/** Restore a backup (by id, or an archive file) into a new knowledge box. */
export async function runBackupRestore(ctx: Context, ref: string, opts: BackupRestoreOptions): Promise<void> {
  if (!opts.slug) throw usageError("--slug is required", "the backup is restored into a new knowledge box with this slug");
  const client = await ctx.client(opts);
  const title = opts.title ?? opts.slug;
  let id: string;
  if (existsSync(ref)) {
    ctx.status(`uploading ${ref}`, opts);
    id = (await uploadArchive(client, bk.importNewKb, { query: { slug: opts.slug, title } }, ref)).kbid;
  } else {
    id = (await client.call(bk.restoreBackup, { params: { ...ACCOUNT, backup_id: ref }, body: { slug: opts.slug, title } })).id;
  }
  if (opts.json) return printJson(ctx.io, { id });
  ctx.io.stdout.write(`${id}\n`);
  ctx.status(`restored into knowledge box ${opts.slug}`, opts);
}

export function backupRestoreCommand(ctx: Context): Command {
  return new Command("restore")
    .description("Restore a backup into a new knowledge box")
    .argument("<backup>", "backup id (see `kbox backup list`) or a .tar.gz archive file")
    .option("--slug <slug>", "slug of the new knowledge box (required)")
    .option("--title <title>", "title of the new knowledge box (defaults to the slug)")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      '\nExamples:\n  kbox backup restore 3f2a... --slug notes-copy --title "Notes (copy)"\n  kbox backup restore notes.tar.gz --slug notes2',
    )
    .action(async (ref: string, _o, cmd: Command) => runBackupRestore(ctx, ref, ctx.opts<BackupRestoreOptions>(cmd)));
}
