import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as bk from "../../client/routes/backups.js";
import { ACCOUNT, exportTo, waitArchive } from "./shared.js";

export interface BackupCreateOptions extends GlobalOptions {
  out?: string;
}

/** Back up a knowledge box into the daemon's backups folder, or (with --out) into a file here. */
export async function runBackupCreate(ctx: Context, opts: BackupCreateOptions): Promise<void> {
  const kbid = await ctx.kbid(opts);
  if (opts.out) {
    const res = await exportTo(ctx, opts, kbid, opts.out);
    if (opts.json) return printJson(ctx.io, res);
    ctx.io.stdout.write(`${res.path}\n`);
    ctx.status(`wrote ${res.size} bytes`, opts);
    return;
  }
  const client = await ctx.client(opts);
  const { id } = await client.call(bk.createBackup, { params: ACCOUNT, body: { kb_id: kbid } });
  const done = await waitArchive(ctx, opts, () => client.call(bk.getBackup, { params: { ...ACCOUNT, backup_id: id } }), "backup");
  if (opts.json) return printJson(ctx.io, done);
  ctx.io.stdout.write(`${id}\n`);
  ctx.status(`backed up ${done.kb_data.slug}: ${done.paragraphs} paragraphs, ${done.size} bytes`, opts);
}

export function backupCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Back up a knowledge box (consistent while the daemon keeps working)")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("-o, --out <file>", "write the archive to this file instead of the daemon's backups folder")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox backup create --kb notes\n  kbox backup create --kb notes --out notes.tar.gz")
    .action(async (_o, cmd: Command) => runBackupCreate(ctx, ctx.opts<BackupCreateOptions>(cmd)));
}
