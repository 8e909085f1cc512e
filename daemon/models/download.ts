/**
 * One file from the hub into the staging folder: resumes a `.part` left by an interrupted pull
 * (HTTP Range), verifies size and checksum, and only then renames it into place.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { KboxError } from "../errors.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";
import { checksumFromHeaders, type HubFile, hubError } from "./hub.js";

/** A stalled transfer (no byte for this long) is abandoned; the `.part` stays for the next pull. */
const STALL_MS = 60_000;

export interface DownloadResult {
  /** Bytes that were already on disk and were not fetched again. */
  offset: number;
  size: number;
  sha256: string;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** What the daemon may fetch (each redirect hop is checked). */
  policy: FetchPolicy;
  /** Called as bytes arrive with the file's bytes so far (including a resumed offset). */
  onProgress?: (fileBytes: number, fileTotal: number | null) => void;
  /** Called once the server has answered, with the offset the transfer starts from. */
  onStart?: (offset: number, total: number | null) => void;
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

/** sha256 and git blob sha1 of a file on disk. */
export async function hashFile(path: string): Promise<{ sha256: string; gitSha1: string; size: number }> {
  const size = await sizeOf(path);
  const sha = createHash("sha256");
  const git = createHash("sha1").update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha.update(chunk as Buffer);
    git.update(chunk as Buffer);
  }
  return { sha256: sha.digest("hex"), gitSha1: git.digest("hex"), size };
}

/** Refuse a file whose size or checksum differs from what the hub announced. */
export async function verifyFile(path: string, file: HubFile): Promise<{ sha256: string; size: number }> {
  const h = await hashFile(path);
  const fail = (what: string, want: string | number, got: string | number) =>
    new KboxError(502, `checksum mismatch for ${file.path}: ${what} expected ${want}, got ${got}; the file was discarded`);
  if (file.size !== null && file.size !== h.size) throw fail("size", file.size, h.size);
  if (file.sha256 && file.sha256.toLowerCase() !== h.sha256) throw fail("sha256", file.sha256, h.sha256);
  if (file.gitSha1 && file.gitSha1.toLowerCase() !== h.gitSha1) throw fail("git sha1", file.gitSha1, h.gitSha1);
  return { sha256: h.sha256, size: h.size };
}

/** Fetch `url` into `dest` (via `dest.part`), resuming and verifying; `file` carries the expected size/checksum. */
export async function downloadFile(url: string, dest: string, file: HubFile, opts: DownloadOptions): Promise<DownloadResult> {
  const part = `${dest}.part`;
  await mkdir(dirname(dest), { recursive: true });
  let offset = await sizeOf(part);
  if (file.size !== null && offset > file.size) {
    await truncate(part, 0);
    offset = 0;
  }
  const stall = new AbortController();
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, stall.signal]) : stall.signal;
  const base = new URL(url).origin;
  try {
    let res: Response;
    try {
      const headers: Record<string, string> = offset > 0 ? { range: `bytes=${offset}-` } : {};
      res = await guardedFetch(url, { signal, headers }, opts.policy);
    } catch (e) {
      throw hubError(base, e);
    }
    if (res.status === 404) throw new KboxError(404, `${file.path} not found on the hub (${url})`);
    if (res.status === 416 && offset > 0) {
      await res.body?.cancel();
    } else {
      if (!res.ok) throw new KboxError(502, `the model hub answered ${res.status} for ${file.path}`);
      if (res.status !== 206) offset = 0; // the server ignored the Range: start over
      const expected = { ...checksumFromHeaders(res.headers), ...stripUndefined(file) };
      Object.assign(file, expected);
      const total = file.size ?? totalFromHeaders(res, offset);
      opts.onStart?.(offset, total);
      await writeBody(res, part, offset, total, opts, () => {
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(), STALL_MS);
      });
    }
    const verified = await verifyFile(part, file).catch(async (e) => {
      await rm(part, { force: true });
      throw e;
    });
    await rename(part, dest);
    return { offset, ...verified };
  } catch (e) {
    if (stall.signal.aborted && !opts.signal?.aborted)
      throw new KboxError(504, `download of ${file.path} stalled; run the pull again to resume`);
    if (e instanceof KboxError) throw e;
    const why = (e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    throw new KboxError(502, `download of ${file.path} was interrupted (${why}); what arrived is kept for the next pull`);
  } finally {
    clearTimeout(timer);
  }
}

function stripUndefined(file: HubFile): Partial<HubFile> {
  return Object.fromEntries(Object.entries(file).filter(([, v]) => v !== undefined && v !== null));
}

function totalFromHeaders(res: Response, offset: number): number | null {
  const range = /\/(\d+)$/.exec(res.headers.get("content-range") ?? "");
  if (range) return Number(range[1]);
  const len = res.headers.get("content-length");
  return len === null ? null : offset + Number(len);
}

async function writeBody(
  res: Response,
  part: string,
  offset: number,
  total: number | null,
  opts: DownloadOptions,
  onChunk: () => void,
): Promise<void> {
  if (!res.body) return;
  const out = createWriteStream(part, { flags: offset > 0 ? "a" : "w" });
  let bytes = offset;
  try {
    for await (const chunk of Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>)) {
      onChunk();
      const buf = chunk as Buffer;
      if (!out.write(buf)) await new Promise<void>((r) => out.once("drain", () => r()));
      bytes += buf.length;
      opts.onProgress?.(bytes, total);
    }
  } finally {
    out.end();
    await finished(out).catch(() => undefined);
  }
}
