import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { Extracted } from "../types.js";
import { type Detected, detectFile } from "./detect.js";
import { asExtractionError, ExtractionError } from "./errors.js";
import { extractHtml } from "./html.js";
import { stripOverstrike, troffToText } from "./man.js";
import { jsonlToText, jsonToText, markdownDocument, rstToText } from "./markup.js";
import { plainText } from "./text.js";

/** What `extractFileField` needs to know about a stored file. */
export interface FileInput {
  path: string;
  /** The file's bytes when they are already read (a text format extracted in process): `path` is not read. */
  bytes?: Buffer;
  filename?: string;
  contentType?: string;
  password?: string;
  language?: string;
  /** Read images and PDF pages without a text layer by OCR (default true). */
  ocr?: boolean;
  /** Extract only the main content of HTML (links do; uploaded HTML files keep everything). */
  htmlMainContent?: boolean;
}

/** Text-based formats are read whole: above this they are too big to be a document anyone wrote. */
const MAX_TEXT_FILE = 256 * 1024 * 1024;

type Reader = (input: FileInput, d: Detected) => Promise<Extracted>;

// The parsers of binary formats (PDFium, ExcelJS, JSZip) are big: each loads on its first document,
// so an extraction worker that only ever sees text starts fast and stays small.
const READERS: Record<string, Reader> = {
  "application/pdf": async (i) => (await import("./pdf.js")).extractPdf(i.path, i.password, { ocr: i.ocr !== false }),
  "image/png": (i, d) => image(i, d),
  "image/jpeg": (i, d) => image(i, d),
  "image/tiff": (i, d) => image(i, d),
  "image/webp": (i, d) => image(i, d),
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": async (i) =>
    (await import("./docx.js")).extractDocx(i.path),
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": async (i) =>
    (await import("./office.js")).extractPptx(i.path),
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": async (i) =>
    (await import("./sheet.js")).extractXlsx(i.path),
  "application/vnd.oasis.opendocument.text": async (i) => (await import("./office.js")).extractOdt(i.path),
  "application/epub+zip": async (i) => (await import("./epub.js")).extractEpub(i.path),
  "text/csv": async (i, d) => (await import("./sheet.js")).extractCsv(i.path, nodeEncoding(d), "text/csv"),
  "text/tab-separated-values": async (i, d) =>
    (await import("./sheet.js")).extractCsv(i.path, nodeEncoding(d), "text/tab-separated-values"),
  "text/html": async (i, d) => extractHtml(await readText(i, d), { mainContent: i.htmlMainContent }),
  "application/xml": async (i, d) => ({ ...extractHtml(await readText(i, d)), metadata: { mime_type: "application/xml" } }),
  "text/markdown": async (i, d) => markdownDocument(await readText(i, d)),
  "text/x-rst": async (i, d) => rstToText(await readText(i, d)),
  "application/json": async (i, d) => jsonToText(await readText(i, d)),
  "application/x-ndjson": async (i, d) => jsonlToText(await readText(i, d)),
  "text/troff": async (i, d) => troffToText(await readText(i, d)),
  "application/gzip": (i) => gunzipped(i),
};

const LEGACY_OFFICE = new Set([
  "application/x-cfb",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
]);

/** Readers that take `bytes` in place of the file (text formats read whole). */
const BYTES_READERS = new Set<Reader>([
  READERS["text/html"],
  READERS["application/xml"],
  READERS["text/markdown"],
  READERS["text/x-rst"],
  READERS["application/json"],
  READERS["application/x-ndjson"],
  READERS["text/troff"],
]);

/** Extracts a file by its detected type; unreadable or unsupported files throw `ExtractionError`. */
export async function extractFile(input: FileInput): Promise<Extracted> {
  const name = input.filename ?? basename(input.path);
  let d: Detected | null;
  try {
    d = await detectFile(input.path, name, input.contentType, input.bytes);
  } catch (err) {
    throw asExtractionError(err, `file "${name}"`);
  }
  if (!d) throw unsupported(name, "binary content of an unknown type");
  const reader = READERS[d.mime] ?? (d.mime.startsWith("text/") ? readPlain : undefined);
  if (!reader) {
    if (LEGACY_OFFICE.has(d.mime)) throw unsupported(name, "a legacy Office (OLE) document: save it as .docx/.xlsx/.pptx");
    throw unsupported(name, d.mime);
  }
  if (input.bytes && reader !== readPlain && !BYTES_READERS.has(reader)) return fromTempFile(input);
  try {
    const ex = await reader(input, d);
    ex.metadata.mime_type ??= d.mime;
    if (d.mime.startsWith("text/x-source")) ex.metadata.mime_type = d.mime;
    return ex;
  } catch (err) {
    throw asExtractionError(err, `${d.mime} file "${name}"`);
  }
}

/** A reader that reads a path (a binary format, CSV) given bytes only: they go to a temp file first. */
async function fromTempFile(input: FileInput): Promise<Extracted> {
  const dir = await mkdtemp(join(tmpdir(), "kbox-bytes-"));
  try {
    const path = join(dir, basename(input.filename ?? "document"));
    await writeFile(path, input.bytes as Buffer, { mode: 0o600 });
    return await extractFile({ ...input, path, bytes: undefined });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const readPlain: Reader = async (i, d) => {
  // A manual formatted for a terminal marks bold and underline by overstriking.
  const ex = plainText(stripOverstrike(await readText(i, d)));
  ex.metadata.mime_type = d.mime;
  return ex;
};

/** An image: its text by OCR, unless OCR is off. */
async function image(i: FileInput, d: Detected): Promise<Extracted> {
  if (i.ocr === false) throw unsupported(i.filename ?? basename(i.path), `${d.mime} (an image: OCR is off, KBOX_OCR=0)`);
  return (await import("./ocr.js")).extractImage(i.path, d.mime);
}

/** A gzip-compressed document (man pages, README.gz): the file inside, named without `.gz`. */
async function gunzipped(i: FileInput): Promise<Extracted> {
  const name = (i.filename ?? basename(i.path)).replace(/\.(?:gz|z)$/i, "") || "document";
  const dir = await mkdtemp(join(tmpdir(), "kbox-gz-"));
  try {
    const inner = join(dir, basename(name));
    await pipeline(createReadStream(i.path), createGunzip(), capped(MAX_TEXT_FILE), createWriteStream(inner));
    const ex = await extractFile({ ...i, path: inner, bytes: undefined, filename: name, contentType: undefined });
    ex.metadata.compression = "gzip";
    return ex;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A pass-through that fails past `max` bytes (a decompression bomb stops there). */
function capped(max: number): Transform {
  let n = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      n += chunk.length;
      if (n > max) cb(new ExtractionError("TOO_LARGE", `Decompressed file is larger than ${max >> 20} MiB`));
      else cb(null, chunk);
    },
  });
}

function unsupported(name: string, what: string): ExtractionError {
  return new ExtractionError("UNSUPPORTED_FORMAT", `Unsupported file type for "${name}": ${what}`);
}

function nodeEncoding(d: Detected): BufferEncoding {
  return d.encoding === "latin1" ? "latin1" : d.encoding === "utf-16le" ? "utf16le" : "utf-8";
}

async function readText(i: FileInput, d: Detected): Promise<string> {
  if ((i.bytes?.length ?? (await stat(i.path)).size) > MAX_TEXT_FILE) {
    throw new ExtractionError("TOO_LARGE", `Text file is larger than ${MAX_TEXT_FILE >> 20} MiB`);
  }
  const buf = i.bytes ?? (await readFile(i.path));
  if (d.encoding === "utf-16be") return new TextDecoder("utf-16be").decode(buf);
  const text = buf.toString(nodeEncoding(d));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
