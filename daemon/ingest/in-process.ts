import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { FileField, TextField } from "../../src/api/fields.js";
import type { FieldDoc } from "../store/index.js";
import type { BlobPaths, FieldOutcome, ProcessOptions } from "./process-field.js";

/** Plain formats small enough to parse on the daemon's thread: cheaper than a message to a worker and back. */
const PLAIN_EXT = new Set([".md", ".markdown", ".txt", ".text", ".html", ".htm"]);
/** Above this, even a plain file goes to a worker (a big HTML page can take the thread a while). */
export const IN_PROCESS_MAX_BYTES = 256 * 1024;

export type Extract = (doc: FieldDoc, blobs: BlobPaths, signal?: AbortSignal, opts?: ProcessOptions) => Promise<FieldOutcome>;

/** A file field named as a plain format (its bytes are checked before parsing: see inProcessExtract). */
function plainFile(doc: FieldDoc): boolean {
  if (doc.type !== "file" || !doc.blob) return false;
  const f = (doc.value as FileField).file;
  const size = (f as { size?: number }).size;
  return PLAIN_EXT.has(extname(f.filename ?? "").toLowerCase()) && (size === undefined || size <= IN_PROCESS_MAX_BYTES);
}

/** A text field small enough to parse here (its body is already in memory). */
const smallText = (doc: FieldDoc) =>
  doc.type === "text" && ((doc.value as TextField | undefined)?.body?.length ?? 0) <= IN_PROCESS_MAX_BYTES;

/** A blob's bytes, up to just past the in-process limit (a bigger one goes to a worker unread). */
async function readBlob(blobs: BlobPaths, key: string): Promise<Buffer | undefined> {
  if (blobs.readBuffer) return blobs.readBuffer(key);
  const path = blobs.path(key);
  const st = await stat(path).catch(() => undefined);
  if (!st || st.size > IN_PROCESS_MAX_BYTES) return undefined;
  return readFile(path).catch(() => undefined);
}

/** Text that is what its name says: valid UTF-8, no NUL, no PDF header (anything else goes to a worker). */
function plainBytes(buf: Buffer): boolean {
  if (buf.includes(0) || buf.subarray(0, 1024).includes("%PDF-")) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/** Where a small plain field is analysed: the field threads (field-threads.ts; without one, the daemon's thread). */
export type Analyse = (doc: FieldDoc, opts?: ProcessOptions) => Promise<FieldOutcome>;

/**
 * Extraction by where it is cheapest: titles and summaries (`generic` fields), small text fields and
 * small Markdown, text and HTML files through `analyse` (a field thread: no
 * process round trip, and the daemon's thread keeps only the writes); everything else, and any file
 * whose bytes are not the plain text its name says, goes to the worker processes through `worker`,
 * isolated from the daemon.
 */
export function inProcessExtract(worker: Extract, analyse: Analyse): Extract {
  return async (doc, blobs, signal, opts) => {
    if (doc.type === "generic" || smallText(doc)) return analyse(doc, opts);
    if (!plainFile(doc)) return worker(doc, blobs, signal, opts);
    // Read once, here (a packed blob has no file of its own): extraction parses these bytes.
    const bytes = await readBlob(blobs, doc.blob as string);
    if (!bytes || bytes.length > IN_PROCESS_MAX_BYTES || !plainBytes(bytes)) return worker(doc, blobs, signal, opts);
    return analyse(doc, { ...opts, bytes });
  };
}
