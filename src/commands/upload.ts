import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { CliError, EXIT, usageError } from "../cli/errors.js";
import { printJson, printTable } from "../cli/output.js";
import { progress, progressLine } from "../cli/progress.js";
import { ApiError } from "../client/errors.js";
import type { UploadResponse } from "../client/routes/uploads.js";
import { directUpload, md5Of, type TusState, tusUpload, type UploadJob } from "../client/upload.js";

/** Where unfinished TUS uploads are remembered (in the config dir), so that running the command again resumes them. */
export function tusState(ctx: Context): TusState {
  const file = join(ctx.paths.config, "tus-uploads.json");
  return {
    load: () => {
      try {
        return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
      } catch {
        return {};
      }
    },
    save: (s) => {
      if (existsSync(ctx.paths.config)) writeFileSync(file, JSON.stringify(s), { mode: 0o600 });
    },
  };
}

/**
 * A progress bar on stderr as every other command draws it (src/cli/progress.ts: counts, rate, ETA),
 * fed with (done, total); on a TTY only — piped, callers print their own plain lines. `unit` names
 * what is counted ("files"), or `bytes` counts bytes.
 */
export function progressBar(ctx: Context, unit: string, o: { bytes?: boolean } = {}): (done: number, total: number) => void {
  if (!ctx.io.stderr.isTTY) return () => undefined;
  const p = progress(ctx, { label: unit, bytes: o.bytes });
  const start = Date.now();
  let ended = false;
  return (done, total) => {
    if (ended) return;
    p.update(done, total);
    if (done >= total) {
      ended = true;
      // The finished bar stays on screen: what was done, at what rate.
      p.done(progressLine({ label: unit, bytes: o.bytes }, done, total, (Date.now() - start) / 1000, true));
    }
  };
}

export interface UploadOptions {
  kb?: string;
  json?: boolean;
  quiet?: boolean;
  resource?: string;
  field?: string;
  direct?: boolean;
  splitStrategy?: string;
  extractStrategy?: string;
}

export async function runUpload(ctx: Context, file: string, opts: UploadOptions): Promise<void> {
  const path = resolve(ctx.io.cwd, file);
  if (!existsSync(path) || !statSync(path).isFile()) throw usageError(`${file} is not a file`);
  if (opts.field && !opts.resource) throw usageError("--field needs --resource");
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const job: UploadJob = {
    kbid,
    path,
    md5: await md5Of(path),
    onProgress: opts.quiet ? undefined : progressBar(ctx, basename(path), { bytes: true }),
  };
  if (opts.resource) job.field = { rid: opts.resource, field: opts.field ?? "file" };
  Object.assign(job, { splitStrategy: opts.splitStrategy, extractStrategy: opts.extractStrategy });
  let out: UploadResponse;
  try {
    out = opts.direct ? await directUpload(client, job) : await tusUpload(client, job, tusState(ctx));
  } catch (e) {
    if (e instanceof ApiError && e.status === 409)
      throw new CliError(`${file} is already in this knowledge box (same md5)`, EXIT.failure);
    throw e;
  }
  if (opts.json) return printJson(ctx.io, out);
  printTable(
    ctx.io,
    [
      { header: "resource", get: (r: UploadResponse) => r.uuid },
      { header: "field", get: (r) => r.field_id },
    ],
    [out],
  );
}

export function uploadCommand(ctx: Context): Command {
  return new Command("upload")
    .description("Upload a file (resumable TUS chunks; run it again to resume an interrupted upload)")
    .argument("<file>", "the file")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--resource <id>", "into a file field of this resource (id) instead of a new resource")
    .option("--field <id>", "field id with --resource (default: file)")
    .option("--direct", "one direct upload instead of TUS")
    .option("--split-strategy <id>", "split the file with this split strategy (see kbox strategy)")
    .option("--extract-strategy <id>", "process the file with this extract strategy")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox upload report.pdf\n  kbox upload big.pdf --kb notes --json\n  kbox upload scan.pdf --resource 0f1e… --field scan\n  kbox upload notes.txt --split-strategy 5b2c…",
    )
    .action(async (file: string, _o, cmd: Command) => runUpload(ctx, file, ctx.opts<UploadOptions>(cmd)));
}
