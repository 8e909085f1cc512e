import { open } from "node:fs/promises";
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";
import { asExtractionError, ExtractionError } from "./errors.js";
import { PdfRenderer } from "./pdf-render.js";
import { discardPdfium, FPDF_ERR, loadPdfium, type Pdfium, type PdfiumDoc, PdfiumOpenError } from "./pdfium.js";

// Small files are copied whole into PDFium's heap; bigger ones are read in blocks as PDFium asks for
// them. PDFium keeps the objects it has parsed until the document is closed, so a big file is reopened
// after RELOAD_BYTES have been read: memory stays bounded whatever the file size.
const WHOLE_FILE_LIMIT = 4 * 1024 * 1024;
const RELOAD_BYTES = 48 * 1024 * 1024;

/** Limits of the PDF reader (tests lower them to exercise the large-file path on small files). */
export interface PdfOptions {
  wholeFileLimit?: number;
  reloadBytes?: number;
  /** Read pages without a text layer (scans) by OCR. */
  ocr?: boolean;
}

/**
 * Text of a PDF, page by page (`pages` holds 1-based page numbers), with its document info.
 * Files above `wholeFileLimit` bytes are read in blocks on demand.
 */
export async function extractPdf(path: string, password?: string, opts: PdfOptions = {}): Promise<Extracted> {
  const pdfium = await loadPdfium();
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const whole = size <= (opts.wholeFileLimit ?? WHOLE_FILE_LIMIT);
    const reloadBytes = opts.reloadBytes ?? RELOAD_BYTES;
    const data = whole ? new Uint8Array(size) : null;
    if (data) await fh.read(data, 0, size, 0);
    const reopen = () => openPdf(pdfium, data ? { data } : { fd: fh.fd, size }, password);
    let doc = reopen();
    let trapped = false;
    const renderer = opts.ocr ? new PdfRenderer(fh, size, password, whole, reloadBytes) : null;
    try {
      const b = new TextBuilder();
      const numPages = pdfium.raw.FPDF_GetPageCount(doc.handle);
      const md = docMetadata(pdfium, doc.handle, numPages);
      const scanned = new Set<number>();
      for (let n = 1; n <= numPages; n++) {
        if (doc.served() > reloadBytes) {
          doc.close();
          doc = reopen();
        }
        b.startPage(n);
        const text = pageText(pdfium, doc.handle, n - 1);
        // pageText keeps only lines with a visible character: none is a page without a text layer.
        if (renderer && !text.length) {
          const { recognise, writeLines } = await import("./ocr.js");
          const lines = await recognise(await renderer.render(n));
          writeLines(b, lines);
          if (lines.length) scanned.add(n);
        } else writePageText(b, text);
      }
      if (scanned.size) md.ocr_pages = scanned.size;
      const ex = b.build(md);
      if (scanned.size) ex.ocr = (ex.pages ?? []).filter((p) => scanned.has(p.page)).map(({ start, end }) => ({ start, end }));
      return ex;
    } catch (err) {
      // A trap leaves the module unusable: not even the document is closed in it (see discardPdfium).
      if (err instanceof WebAssembly.RuntimeError) {
        trapped = true;
        discardPdfium(pdfium);
      }
      throw asExtractionError(err, "PDF");
    } finally {
      if (!trapped) doc.close();
      await renderer?.close();
    }
  } finally {
    await fh.close();
  }
}

function openPdf(
  pdfium: Pdfium,
  src: { data: Uint8Array } | { fd: number; size: number },
  password: string | undefined,
): PdfiumDoc {
  try {
    return "data" in src ? pdfium.openMemory(src.data, password) : pdfium.openFile(src.fd, src.size, password);
  } catch (err) {
    if (err instanceof PdfiumOpenError && err.code === FPDF_ERR.PASSWORD) {
      throw password
        ? new ExtractionError("WRONG_PASSWORD", "The PDF password is incorrect")
        : new ExtractionError("PASSWORD_REQUIRED", "The PDF is password-protected: set the file field's password");
    }
    throw asExtractionError(err, "PDF (corrupt or not a PDF)");
  }
}

function docMetadata(pdfium: Pdfium, doc: number, numPages: number): Extracted["metadata"] {
  const md: Extracted["metadata"] = { mime_type: "application/pdf", page_count: numPages };
  const str = (tag: string) => {
    const k = pdfium.cString(tag);
    try {
      return pdfium.utf16((buf, len) => pdfium.raw.FPDF_GetMetaText(doc, k, buf, len)).trim() || undefined;
    } finally {
      pdfium.raw.free(k);
    }
  };
  const title = str("Title");
  const author = str("Author");
  const subject = str("Subject");
  const lang = pdfium.raw.FPDFCatalog_GetLanguage
    ? pdfium.utf16((buf, len) => pdfium.raw.FPDFCatalog_GetLanguage(doc, buf, len)).trim()
    : "";
  if (title) md.title = title;
  if (author) md.author = author;
  if (subject) md.description = subject;
  if (lang) md.language = lang.split(/[-_]/)[0].toLowerCase();
  return md;
}

/** One line of a page as PDFium lays it out: its text, baseline and font size. */
interface PageLine {
  text: string;
  y: number;
  size: number;
}

/** The lines of page `index` (0-based), in PDFium's reading order; page and text page freed. */
function pageText(pdfium: Pdfium, doc: number, index: number): PageLine[] {
  const { raw } = pdfium;
  const page = raw.FPDF_LoadPage(doc, index);
  if (!page) throw new Error(`cannot load page ${index + 1}`);
  const tp = raw.FPDFText_LoadPage(page);
  try {
    if (!tp) return [];
    const count = raw.FPDFText_CountChars(tp);
    const text = pdfium.pageText(tp, count);
    // A character outside the BMP is one PDFium character and two UTF-16 units: map offsets then.
    const charIndex = text.length === count ? (i: number) => i : (i: number) => raw.FPDFText_GetCharIndexFromTextIndex(tp, i);
    const lines: PageLine[] = [];
    const re = /[^\r\n]+/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const lead = m[0].search(/\S/);
      if (lead < 0) continue;
      const i = charIndex(m.index + lead);
      const origin = pdfium.charOrigin(tp, i);
      lines.push({ text: m[0], y: origin?.[1] ?? lines.at(-1)?.y ?? 0, size: raw.FPDFText_GetFontSize(tp, i) });
    }
    return lines;
  } finally {
    if (tp) raw.FPDFText_ClosePage(tp);
    raw.FPDF_ClosePage(page);
  }
}

/** Writes a page's lines: a large vertical gap (or a jump back up) starts a paragraph (the rule kbox applied to pdf.js text items). */
function writePageText(b: TextBuilder, lines: PageLine[]): void {
  let prev: PageLine | null = null;
  for (const l of lines) {
    const h = l.size || prev?.size || 10;
    if (prev) {
      const dy = prev.y - l.y;
      if (dy > Math.max(h, prev.size || h) * 1.8 || dy < -h * 2) b.endBlock();
      else b.endLine();
    }
    b.inline(l.text.replace(/\s+/g, " "));
    prev = l;
  }
  b.endBlock();
}
