/**
 * Pages rendered to PNG by pdf.js, for OCR of pages without a text layer. PDFium reads the text; pdf.js
 * is loaded only when a document has such a page.
 */
import type { FileHandle } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/display/api.js";
import { ExtractionError } from "./errors.js";
import { loadPdfjs } from "./pdfjs.js";

const RANGE_CHUNK = 256 * 1024;
/** The longer side of a page rendered for OCR, in pixels (about 120 dpi on A4). */
const OCR_PIXELS = 1400;

/**
 * Renders pages of one open file. Small files are read whole; bigger ones in ranges on demand. pdf.js
 * keeps every chunk it has loaded until the document is destroyed, so a big file is reopened after
 * `reloadBytes` have been read: memory stays bounded whatever the file size.
 */
export class PdfRenderer {
  private doc: Promise<{ doc: PDFDocumentProxy; served(): number }> | null = null;

  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
    private readonly password: string | undefined,
    private readonly whole: boolean,
    private readonly reloadBytes: number,
  ) {}

  /** Page `n` (1-based) as a PNG on a white background. */
  async render(n: number): Promise<Buffer> {
    let open = this.doc ? await this.doc : null;
    if (open && open.served() > this.reloadBytes) {
      await this.close();
      open = null;
    }
    if (!open) {
      this.doc = this.open();
      open = await this.doc;
    }
    const page = await open.doc.getPage(n);
    try {
      return await renderPage(page);
    } finally {
      page.cleanup();
    }
  }

  async close(): Promise<void> {
    const d = this.doc;
    this.doc = null;
    if (d) await (await d.catch(() => null))?.doc.destroy();
  }

  private async open(): Promise<{ doc: PDFDocumentProxy; served(): number }> {
    const { getDocument, PDFDataRangeTransport } = await loadPdfjs();
    const common = {
      password: this.password,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      standardFontDataUrl: `${join(pdfjsDir(), "standard_fonts")}/`,
      cMapUrl: `${join(pdfjsDir(), "cmaps")}/`,
      cMapPacked: true,
    };
    let task: ReturnType<typeof getDocument>;
    let served = 0;
    if (this.whole) {
      const data = new Uint8Array(this.size);
      await this.fh.read(data, 0, this.size, 0);
      task = getDocument({ ...common, data });
    } else {
      const fh = this.fh;
      const range = new (class extends PDFDataRangeTransport {
        override requestDataRange(begin: number, end: number): void {
          const buf = new Uint8Array(end - begin);
          served += end - begin;
          fh.read(buf, 0, end - begin, begin).then(
            () => this.onDataRange(begin, buf),
            () => void task.destroy(),
          );
        }
      })(this.size, null);
      task = getDocument({ ...common, range, disableAutoFetch: true, disableStream: true, rangeChunkSize: RANGE_CHUNK });
    }
    try {
      return { doc: await task.promise, served: () => served };
    } catch (err) {
      throw new ExtractionError("CORRUPT_FILE", `Cannot render the PDF page: ${(err as Error)?.message ?? err}`, {
        cause: err,
      });
    }
  }
}

let dir: string | undefined;
function pdfjsDir(): string {
  dir ??= dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
  return dir;
}

async function renderPage(page: Awaited<ReturnType<PDFDocumentProxy["getPage"]>>): Promise<Buffer> {
  // The canvas module pdf.js itself loads: its internal canvases (images, patterns) are drawn onto
  // ours, and two copies of the native module in one process crash when their objects meet.
  const pdfjsRequire = createRequire(join(pdfjsDir(), "legacy/build/pdf.mjs"));
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
