import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { Command } from "commander";
import { contentTypeOf } from "../api/mime.js";
import type { CreateResource } from "../api/resources.js";
import { TUS_CHUNK, TUS_VERSION, UPLOAD_HEADERS, type UploadResponse } from "../api/uploads.js";
import type { Context } from "../cli/context.js";
import { CliError, EXIT, usageError } from "../cli/errors.js";
import { printJson, printTable } from "../cli/output.js";
import type { KboxClient } from "../client/client.js";
import { ApiError } from "../client/errors.js";
import { readAll } from "../client/transport.js";

/** Files up to this size go by one direct upload; larger ones by resumable TUS chunks. */
export const DIRECT_MAX = 8 * 1024 * 1024;

/** MD5 of a file, streamed (the daemon refuses a duplicate with 409). */
export async function md5Of(path: string): Promise<string> {
  const h = createHash("md5");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** A local file to upload and where it goes. */
export interface UploadJob {
  kbid: string;
  path: string;
  md5?: string;
  /** Payload of the new resource (labels, origin, ...); absent for a plain file. */
  create?: CreateResource;
  /** Into a field of an existing resource instead of a new one. */
  field?: { rid: string; field: string };
  /** Split and extract strategy ids for the file field (x-split-strategy / x-extract-strategy). */
  splitStrategy?: string;
  extractStrategy?: string;
  onProgress?: (sent: number, total: number) => void;
}

async function expectStatus(res: Awaited<ReturnType<KboxClient["raw"]>>, ok: number[]): Promise<string> {
  const text = (await readAll(res.body)).toString("utf8");
  if (!ok.includes(res.status)) {
    let detail: unknown = text;
    try {
      detail = JSON.parse(text).detail;
    } catch {}
    throw new ApiError(res.status, detail);
  }
  return text;
}

/** The strategy headers of a job (the daemon answers 422 for an id the knowledge box does not have). */
function strategyHeaders(job: UploadJob): Record<string, string> {
  return {
    ...(job.splitStrategy ? { [UPLOAD_HEADERS.splitStrategy]: job.splitStrategy } : {}),
    ...(job.extractStrategy ? { [UPLOAD_HEADERS.extractStrategy]: job.extractStrategy } : {}),
  };
}

/** One direct upload: the file streams as the raw body. */
export async function directUpload(client: KboxClient, job: UploadJob): Promise<UploadResponse> {
  const size = statSync(job.path).size;
  const headers: Record<string, string> = {
    "content-type": contentTypeOf(job.path),
    "content-length": String(size),
    [UPLOAD_HEADERS.filename]: encodeURIComponent(basename(job.path)),
  };
  if (job.md5) headers[UPLOAD_HEADERS.md5] = job.md5;
  Object.assign(headers, strategyHeaders(job));
  const base = job.field ? `/api/v1/kb/${job.kbid}/resource/${job.field.rid}/file/${job.field.field}` : `/api/v1/kb/${job.kbid}`;
  const res = await client.raw({ method: "POST", path: `${base}/upload`, headers, body: createReadStream(job.path) });
  const out = JSON.parse(await expectStatus(res, [201])) as UploadResponse;
  job.onProgress?.(size, size);
  return out;
}

/** Where unfinished TUS uploads are remembered, so that running the command again resumes them. */
function stateFile(ctx: Context): string {
  return join(ctx.paths.config, "tus-uploads.json");
}
function loadState(ctx: Context): Record<string, string> {
  try {
    return JSON.parse(readFileSync(stateFile(ctx), "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}
function saveState(ctx: Context, s: Record<string, string>): void {
  if (!existsSync(ctx.paths.config)) return;
  writeFileSync(stateFile(ctx), JSON.stringify(s), { mode: 0o600 });
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

async function tusStart(client: KboxClient, job: UploadJob, size: number): Promise<string> {
  const meta = [`filename ${b64(encodeURIComponent(basename(job.path)))}`, `content_type ${b64(contentTypeOf(job.path))}`];
  if (job.md5) meta.push(`md5 ${b64(job.md5)}`);
  const base = job.field ? `/api/v1/kb/${job.kbid}/resource/${job.field.rid}/file/${job.field.field}` : `/api/v1/kb/${job.kbid}`;
  const body = job.create && !job.field ? JSON.stringify(job.create) : undefined;
  const headers: Record<string, string> = {
    "tus-resumable": TUS_VERSION,
    "upload-length": String(size),
    "upload-metadata": meta.join(","),
    ...strategyHeaders(job),
  };
  if (body) headers["content-type"] = "application/json";
  const res = await client.raw({ method: "POST", path: `${base}/tusupload`, headers, body });
  await expectStatus(res, [201]);
  return `/api/v1${res.headers.location}`;
}

/** The server's offset of an upload, or undefined when it no longer knows it. */
async function tusOffset(client: KboxClient, location: string): Promise<number | undefined> {
  const res = await client.raw({ method: "HEAD", path: location });
  await readAll(res.body);
  return res.status === 200 ? Number(res.headers["upload-offset"]) : undefined;
}

/** A resumable upload in 5 MB chunks; an interrupted one resumes from the server's offset next time. */
export async function tusUpload(ctx: Context, client: KboxClient, job: UploadJob): Promise<UploadResponse> {
  const st = statSync(job.path);
  const key = `${job.kbid}:${job.field ? `${job.field.rid}/${job.field.field}` : ""}:${resolve(job.path)}:${st.size}:${st.mtimeMs}`;
  const state = loadState(ctx);
  let location = state[key];
  let offset = location ? await tusOffset(client, location) : undefined;
  if (offset === undefined || !location) {
    location = await tusStart(client, job, st.size);
    offset = 0;
    saveState(ctx, { ...loadState(ctx), [key]: location });
  }
  job.onProgress?.(offset, st.size);
  for (;;) {
    const end = Math.min(offset + TUS_CHUNK, st.size);
    const body = end > offset ? createReadStream(job.path, { start: offset, end: end - 1 }) : undefined;
    const headers = {
      "upload-offset": String(offset),
      "content-type": "application/offset+octet-stream",
      "content-length": String(end - offset),
    };
    const res = await client.raw({ method: "PATCH", path: location, headers, body: body ?? "" });
    await expectStatus(res, [200, 204]);
    offset = Number(res.headers["upload-offset"]);
    job.onProgress?.(offset, st.size);
    if (res.headers["tus-upload-finished"] === "1") {
      const { [key]: _done, ...rest } = loadState(ctx);
      saveState(ctx, rest);
      const rid = String(res.headers["ndb-resource"]).split("/").pop() as string;
      const field = String(res.headers["ndb-field"]).split("/").pop() as string;
      return { uuid: rid, field_id: field, seqid: Number(res.headers["ndb-seq"]) || null };
    }
    if (offset >= st.size) throw new CliError(`upload of ${job.path} did not finish (server offset ${offset})`);
  }
}

/** A progress line on stderr: a bar on a TTY, nothing when piped (callers print plain lines). */
export function progressBar(ctx: Context, label: string): (done: number, total: number) => void {
  if (!ctx.io.stderr.isTTY) return () => undefined;
  return (done, total) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    ctx.io.stderr.write(
      `\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${total ? Math.floor((done / total) * 100) : 100}%`,
    );
    if (done >= total) ctx.io.stderr.write("\n");
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
    onProgress: opts.quiet ? undefined : progressBar(ctx, basename(path)),
  };
  if (opts.resource) job.field = { rid: opts.resource, field: opts.field ?? "file" };
  Object.assign(job, { splitStrategy: opts.splitStrategy, extractStrategy: opts.extractStrategy });
  let out: UploadResponse;
  try {
    out = opts.direct ? await directUpload(client, job) : await tusUpload(ctx, client, job);
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
