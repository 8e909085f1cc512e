import { type FileHandle, open } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { PDFDocumentProxy, TextItem } from "pdfjs-dist/types/src/display/api.js";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { asExtractionError, ExtractionError } from "./errors.js";
import { loadPdfjs } from "./pdfjs.js";

const { getDocument, PDFDataRangeTransport } = await loadPdfjs();

const pdfjsDir = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
const pdfjsRequire = createRequire(join(pdfjsDir, "legacy/build/pdf.mjs"));

// Small files are read whole; bigger ones are read on demand in chunks. pdf.js keeps every chunk it
// has loaded (page resources pull in image data too) until the document is destroyed, so a big file
// is reopened after RELOAD_BYTES have been read: memory stays bounded whatever the file size.
const WHOLE_FILE_LIMIT = 4 * 1024 * 1024;
const RANGE_CHUNK = 256 * 1024;
const RELOAD_BYTES = 48 * 1024 * 1024;

/** Serves pdf.js byte ranges from an open file, counting what it served. */
class FileRangeTransport extends PDFDataRangeTransport {
  served = 0;
  constructor(
    private readonly fh: FileHandle,
    length: number,
    private readonly onError: (err: unknown) => void,
  ) {
    super(length, null);
  }
  override requestDataRange(begin: number, end: number): void {
    const buf = new Uint8Array(end - begin);
    this.served += end - begin;
    this.fh.read(buf, 0, end - begin, begin).then(
      () => this.onDataRange(begin, buf),
      (err) => this.onError(err),
    );
  }
}

interface OpenDoc {
  doc: PDFDocumentProxy;
  /** Bytes read from the file since this document was opened (0 when read whole). */
  served(): number;
}

/** Limits of the PDF reader (tests lower them to exercise the large-file path on small files). */
export interface PdfOptions {
  wholeFileLimit?: number;
  reloadBytes?: number;
  /** Read pages without a text layer (scans) by OCR. */
  ocr?: boolean;
}

/**
 * Text of a PDF, page by page (`pages` holds 1-based page numbers), with its document info.
 * Files above `wholeFileLimit` bytes are read in ranges on demand.
 */
export async function extractPdf(path: string, password?: string, opts: PdfOptions = {}): Promise<Extracted> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const whole = size <= (opts.wholeFileLimit ?? WHOLE_FILE_LIMIT);
    const reopen = () => openPdf(fh, size, password, whole);
    let current = await reopen();
    try {
      const b = new TextBuilder();
      const numPages = current.doc.numPages;
      const md = await docMetadata(current.doc);
      const scanned = new Set<number>();
      for (let n = 1; n <= numPages; n++) {
        if (current.served() > (opts.reloadBytes ?? RELOAD_BYTES)) {
          await current.doc.destroy();
          current = await reopen();
        }
        if (await readPage(current.doc, n, b, opts.ocr ?? false)) scanned.add(n);
      }
      if (scanned.size) md.ocr_pages = scanned.size;
      const ex = b.build(md);
      if (scanned.size) ex.ocr = (ex.pages ?? []).filter((p) => scanned.has(p.page)).map(({ start, end }) => ({ start, end }));
      return ex;
    } catch (err) {
      throw asExtractionError(err, "PDF");
    } finally {
      await current.doc.destroy();
    }
  } finally {
    await fh.close();
  }
}

async function openPdf(fh: FileHandle, size: number, password: string | undefined, whole: boolean): Promise<OpenDoc> {
  const common = {
    password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: `${join(pdfjsDir, "standard_fonts")}/`,
    cMapUrl: `${join(pdfjsDir, "cmaps")}/`,
    cMapPacked: true,
  };
  let task: ReturnType<typeof getDocument>;
  let range: FileRangeTransport | null = null;
  if (whole) {
    const data = new Uint8Array(size);
    await fh.read(data, 0, size, 0);
    task = getDocument({ ...common, data });
  } else {
    range = new FileRangeTransport(fh, size, () => void task.destroy());
    task = getDocument({ ...common, range, disableAutoFetch: true, disableStream: true, rangeChunkSize: RANGE_CHUNK });
  }
  try {
    const doc = await task.promise;
    return { doc, served: () => range?.served ?? 0 };
  } catch (err) {
    throw pdfOpenError(err);
  }
}

function pdfOpenError(err: unknown): ExtractionError {
  const e = err as { name?: string; code?: number; message?: string };
  if (e?.name === "PasswordException") {
    return e.code === 2
      ? new ExtractionError("WRONG_PASSWORD", "The PDF password is incorrect")
      : new ExtractionError("PASSWORD_REQUIRED", "The PDF is password-protected: set the file field's password");
  }
  return asExtractionError(err, "PDF (corrupt or not a PDF)");
}

/** Write page `n`'s text; a page with no text layer is rendered and read by OCR when `ocr`. True when it was. */
async function readPage(doc: PDFDocumentProxy, n: number, b: TextBuilder, ocr: boolean): Promise<boolean> {
  const page = await doc.getPage(n);
  b.startPage(n);
  const content = await page.getTextContent();
  const items = content.items.filter((it): it is TextItem => "str" in it);
  let scanned = false;
  if (ocr && !items.some((it) => /\S/.test(it.str))) {
    const { recognise, writeLines } = await import("./ocr.js");
    const lines = await recognise(await renderPage(page));
    writeLines(b, lines);
    scanned = lines.length > 0;
  } else writePageText(b, items);
  // Drop the page's parsed objects now: a long document must not accumulate them.
  page.cleanup();
  return scanned;
}

/** The longer side of a page rendered for OCR, in pixels (about 120 dpi on A4). */
const OCR_PIXELS = 1400;

/** A page rendered to PNG (white background) for OCR. */
async function renderPage(page: Awaited<ReturnType<PDFDocumentProxy["getPage"]>>): Promise<Buffer> {
  // The canvas module pdf.js itself loads: its internal canvases (images, patterns) are drawn onto
  // ours, and two copies of the native module in one process crash when their objects meet.
  const { createCanvas } = pdfjsRequire("@napi-rs/canvas") as typeof import("@napi-rs/canvas");
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: Math.min(4, OCR_PIXELS / Math.max(base.width, base.height)) });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "white";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: ctx as never, canvas: canvas as never, viewport }).promise;
  return canvas.toBuffer("image/png");
}

async function docMetadata(doc: PDFDocumentProxy): Promise<Extracted["metadata"]> {
  const md: Extracted["metadata"] = { mime_type: "application/pdf", page_count: doc.numPages };
  const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
  const str = (k: string) => (typeof info?.[k] === "string" && (info[k] as string).trim()) || undefined;
  if (str("Title")) md.title = str("Title");
  if (str("Author")) md.author = str("Author");
  if (str("Subject")) md.description = str("Subject");
  if (str("Language")) md.language = (str("Language") as string).split(/[-_]/)[0].toLowerCase();
  return md;
}

/** Rebuilds lines and paragraphs from positioned text runs: a large vertical gap starts a paragraph. */
function writePageText(b: TextBuilder, items: TextItem[]): void {
  let prev: TextItem | null = null;
  let prevEol = false;
  for (const it of items) {
    if (!it.str && !it.hasEOL) continue;
    const h = it.height || prev?.height || 10;
    if (prev) {
      const dy = prev.transform[5] - it.transform[5];
      const newLine = prevEol || Math.abs(dy) > h * 0.5;
      if (newLine) {
        if (dy > Math.max(h, prev.height || h) * 1.8 || dy < -h * 2) b.endBlock();
        else b.endLine();
      } else if (!/\s$/.test(prev.str) && !/^\s/.test(it.str)) {
        const gap = it.transform[4] - (prev.transform[4] + prev.width);
        if (gap > h * 0.15) b.inline(" ");
      }
    }
    b.inline(it.str.replace(/\s+/g, " "));
    if (it.str) prev = it;
    prevEol = it.hasEOL || (prevEol && !it.str);
  }
  b.endBlock();
}
