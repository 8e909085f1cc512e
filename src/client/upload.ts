import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { contentTypeOf } from "../api/mime.js";
import type { KboxClient } from "./client.js";
import { ApiError } from "./errors.js";
import type { CreateResource } from "./routes/resources.js";
import { TUS_CHUNK, TUS_VERSION, tusCreate, UPLOAD_HEADERS, type UploadResponse, upload } from "./routes/uploads.js";
import { type RawRequest, type RawResponse, readAll } from "./transport.js";

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

/** Where unfinished TUS uploads are remembered (upload key → location), so a second run resumes them. */
export interface TusState {
  load(): Record<string, string>;
  save(state: Record<string, string>): void;
}

async function expectStatus(res: RawResponse, ok: number[]): Promise<string> {
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

/** Send to the knowledge-box form of an upload route (a new resource), or its field form. */
function sendTo(
  client: KboxClient,
  pair: typeof upload | typeof tusCreate,
  job: UploadJob,
  init: Pick<RawRequest, "headers" | "body">,
) {
  if (!job.field) return client.exchange(pair.kb, { params: { kbid: job.kbid }, ...init });
  return client.exchange(pair.byId, { params: { kbid: job.kbid, rid: job.field.rid, field: job.field.field }, ...init });
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
  const res = await sendTo(client, upload, job, { headers, body: createReadStream(job.path) });
  const out = JSON.parse(await expectStatus(res, [201])) as UploadResponse;
  job.onProgress?.(size, size);
  return out;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

async function tusStart(client: KboxClient, job: UploadJob, size: number): Promise<string> {
  const meta = [`filename ${b64(encodeURIComponent(basename(job.path)))}`, `content_type ${b64(contentTypeOf(job.path))}`];
  if (job.md5) meta.push(`md5 ${b64(job.md5)}`);
  const body = job.create && !job.field ? JSON.stringify(job.create) : undefined;
  const headers: Record<string, string> = {
    "tus-resumable": TUS_VERSION,
    "upload-length": String(size),
    "upload-metadata": meta.join(","),
    ...strategyHeaders(job),
  };
  if (body) headers["content-type"] = "application/json";
  const res = await sendTo(client, tusCreate, job, { headers, body });
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
export async function tusUpload(client: KboxClient, job: UploadJob, state: TusState): Promise<UploadResponse> {
  const st = statSync(job.path);
  const key = `${job.kbid}:${job.field ? `${job.field.rid}/${job.field.field}` : ""}:${resolve(job.path)}:${st.size}:${st.mtimeMs}`;
  let location = state.load()[key];
  let offset = location ? await tusOffset(client, location) : undefined;
  if (offset === undefined || !location) {
    location = await tusStart(client, job, st.size);
    offset = 0;
    state.save({ ...state.load(), [key]: location });
  }
  job.onProgress?.(offset, st.size);
  for (;;) {
    const end = Math.min(offset + TUS_CHUNK, st.size);
    const body = end > offset ? createReadStream(job.path, { start: offset, end: end - 1 }) : undefined;
    const headers = {
      "tus-resumable": "1.0.0",
      "upload-offset": String(offset),
      "content-type": "application/offset+octet-stream",
      "content-length": String(end - offset),
    };
    const res = await client.raw({ method: "PATCH", path: location, headers, body: body ?? "" });
    await expectStatus(res, [200, 204]);
    offset = Number(res.headers["upload-offset"]);
    job.onProgress?.(offset, st.size);
    if (res.headers["tus-upload-finished"] === "1") {
      const { [key]: _done, ...rest } = state.load();
      state.save(rest);
      const rid = String(res.headers["ndb-resource"]).split("/").pop() as string;
      const field = String(res.headers["ndb-field"]).split("/").pop() as string;
      return { uuid: rid, field_id: field, seqid: Number(res.headers["ndb-seq"]) || null };
    }
    if (offset >= st.size) throw new Error(`upload of ${job.path} did not finish (server offset ${offset})`);
  }
}
