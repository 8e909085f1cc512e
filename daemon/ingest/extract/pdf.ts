import { type FileHandle, open } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument, PDFDataRangeTransport } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentProxy, TextItem } from "pdfjs-dist/types/src/display/api.js";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { asExtractionError, ExtractionError } from "./errors.js";

const pdfjsDir = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

// Small files are read whole; bigger ones are read on demand in chunks, so memory follows the pages
// being read rather than the file size.
const WHOLE_FILE_LIMIT = 4 * 1024 * 1024;
const RANGE_CHUNK = 256 * 1024;

/** Serves pdf.js byte ranges from an open file. */
class FileRangeTransport extends PDFDataRangeTransport {
  failed: unknown = null;
  constructor(
    private readonly fh: FileHandle,
    length: number,
    private readonly onError: (err: unknown) => void,
  ) {
    super(length, null);
  }
  override requestDataRange(begin: number, end: number): void {
    const buf = new Uint8Array(end - begin);
    this.fh.read(buf, 0, end - begin, begin).then(
      () => this.onDataRange(begin, buf),
      (err) => this.onError(err),
    );
  }
}

/** Text of a PDF, page by page (`pages` holds 1-based page numbers), with its document info. */
export async function extractPdf(path: string, password?: string): Promise<Extracted> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
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
    if (size <= WHOLE_FILE_LIMIT) {
      const data = new Uint8Array(size);
      await fh.read(data, 0, size, 0);
      task = getDocument({ ...common, data });
    } else {
      const range = new FileRangeTransport(fh, size, () => void task.destroy());
      task = getDocument({ ...common, range, disableAutoFetch: true, disableStream: true, rangeChunkSize: RANGE_CHUNK });
    }
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (err) {
      throw pdfOpenError(err);
    }
    try {
      return await readPages(doc);
    } catch (err) {
      throw asExtractionError(err, "PDF");
    } finally {
      await doc.destroy();
    }
  } finally {
    await fh.close();
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

async function readPages(doc: PDFDocumentProxy): Promise<Extracted> {
  const b = new TextBuilder();
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    b.startPage(n);
    const content = await page.getTextContent();
    writePageText(b, content.items.filter((it): it is TextItem => "str" in it));
    // Drop the page's parsed objects now: a long document must not accumulate them.
    page.cleanup();
  }
  const md: Extracted["metadata"] = { mime_type: "application/pdf", page_count: doc.numPages };
  const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
  const str = (k: string) => (typeof info?.[k] === "string" && (info[k] as string).trim()) || undefined;
  if (str("Title")) md.title = str("Title");
  if (str("Author")) md.author = str("Author");
  if (str("Subject")) md.description = str("Subject");
  if (str("Language")) md.language = (str("Language") as string).split(/[-_]/)[0].toLowerCase();
  return b.build(md);
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
