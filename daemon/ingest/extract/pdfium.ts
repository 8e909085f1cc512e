/**
 * PDFium (compiled to WebAssembly by @embedpdf/pdfium), loaded once per process, and the few calls
 * the PDF extractor makes, on the module's raw exports (the package's cwrap layer converts every
 * argument on each call; text extraction makes several calls per line).
 */
import { readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import type { WrappedPdfiumModule } from "@embedpdf/pdfium";

type Raw = Record<string, (...args: number[]) => number>;
/** What the extractor needs of an Emscripten module of PDFium (the heap views are replaced as it grows). */
export interface PdfiumRuntime {
  wasmExports: unknown;
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  HEAPF64: Float64Array;
  addFunction?: WrappedPdfiumModule["pdfium"]["addFunction"];
  removeFunction?: WrappedPdfiumModule["pdfium"]["removeFunction"];
}
const utf16 = new TextDecoder("utf-16le");

/** FPDF_GetLastError codes. */
export const FPDF_ERR = { UNKNOWN: 1, FILE: 2, FORMAT: 3, PASSWORD: 4, SECURITY: 5, PAGE: 6 } as const;

/** A document opened from memory or from a file read on demand; `close()` frees everything it holds. */
export interface PdfiumDoc {
  readonly handle: number;
  /** Bytes read from the file since the document was opened (0 when it was read whole). */
  served(): number;
  close(): void;
}

/** The loaded module, with the helpers the extractor needs. */
export class Pdfium {
  /** Scratch space for out-parameters (four doubles). */
  private readonly scratch: number;

  readonly raw: Raw;

  constructor(private readonly rt: PdfiumRuntime) {
    this.raw = rt.wasmExports as Raw;
    this.scratch = this.raw.malloc(32);
  }

  static async load(): Promise<Pdfium> {
    const { init } = await import("@embedpdf/pdfium");
    const wasm = createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm");
    // The module prints PDFium's warnings through these: keep them off the worker's stdout.
    const quiet = () => {};
    const m = await init({ wasmBinary: readFileSync(wasm).buffer, print: quiet, printErr: quiet } as never);
    m.PDFiumExt_Init();
    return new Pdfium(m.pdfium as unknown as PdfiumRuntime);
  }

  /** Opens `data` (copied into the heap, freed on close). */
  openMemory(data: Uint8Array, password: string | undefined): PdfiumDoc {
    const buf = this.raw.malloc(Math.max(1, data.length));
    this.rt.HEAPU8.set(data, buf);
    const pw = this.cString(password);
    const handle = this.raw.FPDF_LoadMemDocument(buf, data.length, pw);
    this.raw.free(pw);
    if (!handle) {
      this.raw.free(buf);
      throw new PdfiumOpenError(this.raw.FPDF_GetLastError());
    }
    return {
      handle,
      served: () => 0,
      close: () => {
        this.raw.FPDF_CloseDocument(handle);
        this.raw.free(buf);
      },
    };
  }

  /**
   * Opens the file `fd` of `size` bytes, which PDFium reads in blocks as it needs them (synchronously:
   * extraction runs in worker processes, off the daemon's event loop).
   */
  openFile(fd: number, size: number, password: string | undefined): PdfiumDoc {
    const { addFunction, removeFunction } = this.rt;
    if (!addFunction || !removeFunction) throw new Error("this PDFium build cannot read files in blocks");
    let served = 0;
    const getBlock = addFunction((_param: number, position: number, pBuf: number, len: number) => {
      try {
        // The heap may have grown since the last read: take its current view each time.
        const n = readSync(fd, this.rt.HEAPU8, pBuf, len, position);
        served += n;
        return n === len ? 1 : 0;
      } catch {
        return 0;
      }
    }, "iiiii");
    // FPDF_FILEACCESS (wasm32): m_FileLen, m_GetBlock, m_Param. PDFium keeps the pointer until close.
    const access = this.raw.malloc(12);
    const heap = this.rt.HEAPU32;
    heap[access >> 2] = size;
    heap[(access >> 2) + 1] = getBlock;
    heap[(access >> 2) + 2] = 0;
    const release = () => {
      this.raw.free(access);
      removeFunction(getBlock);
    };
    const pw = this.cString(password);
    const handle = this.raw.FPDF_LoadCustomDocument(access, pw);
    this.raw.free(pw);
    if (!handle) {
      const code = this.raw.FPDF_GetLastError();
      release();
      throw new PdfiumOpenError(code);
    }
    return {
      handle,
      served: () => served,
      close: () => {
        this.raw.FPDF_CloseDocument(handle);
        release();
      },
    };
  }

  /** A string returned as UTF-16LE by `call(buf, bytes)`, which answers the bytes it needs. */
  utf16(call: (buf: number, bytes: number) => number): string {
    const need = call(0, 0);
    if (need <= 2) return "";
    const buf = this.raw.malloc(need);
    try {
      const got = Math.min(call(buf, need), need);
      return this.string16(buf, got);
    } finally {
      this.raw.free(buf);
    }
  }

  /** Text of `count` characters of a text page from `start`, as FPDFText_GetText gives it. */
  pageText(textPage: number, count: number): string {
    if (count <= 0) return "";
    const buf = this.raw.malloc((count + 1) * 2);
    try {
      const n = this.raw.FPDFText_GetText(textPage, 0, count, buf);
      return n > 0 ? this.string16(buf, (n - 1) * 2) : "";
    } finally {
      this.raw.free(buf);
    }
  }

  /** Origin (x, y) of character `i` of a text page, in page space (y upwards), or null. */
  charOrigin(textPage: number, i: number): [number, number] | null {
    const s = this.scratch;
    if (!this.raw.FPDFText_GetCharOrigin(textPage, i, s, s + 8)) return null;
    const f64 = this.rt.HEAPF64;
    return [f64[s >> 3], f64[(s >> 3) + 1]];
  }

  /** UTF-16LE of `bytes` bytes at `p`, up to a NUL. */
  private string16(p: number, bytes: number): string {
    const s = utf16.decode(this.rt.HEAPU8.subarray(p, p + (bytes & ~1)));
    const nul = s.indexOf("\0");
    return nul < 0 ? s : s.slice(0, nul);
  }

  /** `s` as a NUL-terminated UTF-8 string in the heap; the caller frees it. */
  cString(s: string | undefined): number {
    const bytes = Buffer.from(s ?? "", "utf8");
    const p = this.raw.malloc(bytes.length + 1);
    this.rt.HEAPU8.set(bytes, p);
    this.rt.HEAPU8[p + bytes.length] = 0;
    return p;
  }
}

/** A document PDFium could not open, with FPDF_GetLastError's code. */
export class PdfiumOpenError extends Error {
  constructor(readonly code: number) {
    super(
      code === FPDF_ERR.PASSWORD
        ? "password"
        : code === FPDF_ERR.FORMAT
          ? "not a PDF or corrupted"
          : code === FPDF_ERR.FILE
            ? "file not found or could not be read"
            : code === FPDF_ERR.SECURITY
              ? "unsupported security scheme"
              : `PDFium error ${code}`,
    );
  }
}

let loading: Promise<Pdfium> | undefined;
let loaded: Pdfium | undefined;

/** The process's PDFium module (loaded on first use; a module that failed to load is tried again). */
export function loadPdfium(): Promise<Pdfium> {
  loading ??= Pdfium.load().then(
    (p) => {
      loaded = p;
      return p;
    },
    (err) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/**
 * Forget a module that trapped (a `WebAssembly.RuntimeError` out of PDFium: a bad memory access, an
 * abort): its heap may be left inconsistent, so the next document gets a fresh module and this one
 * is left to the collector, with everything it held.
 */
export function discardPdfium(p: Pdfium): void {
  if (loaded !== p) return;
  loaded = undefined;
  loading = undefined;
}
