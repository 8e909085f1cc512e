import type { Extracted, PageSpan, SplitParagraph } from "./types.js";

/** Default maximum paragraph size in characters (about 250-300 tokens: good for embedding models). */
export const DEFAULT_MAX_CHARS = 1200;

// A cut earlier than this fraction of the maximum makes a needlessly small paragraph: look for a
// worse kind of cut (a word boundary, then any position) instead.
const MIN_CUT_FRACTION = 0.3;

/** How a field's split strategy changes the splitter (plain data: it crosses to extraction workers). */
export interface SplitOptions {
  /** Maximum paragraph size in characters (default DEFAULT_MAX_CHARS, at least 16). */
  maxChars?: number;
  /** A literal separator that replaces blank lines as the paragraph delimiter; it is not part of any paragraph. */
  splitter?: string;
}

/**
 * Splits extracted text into paragraphs: at blank lines (or at `splitter`), hard breaks, page and
 * table boundaries; paragraphs over `maxChars` are cut at sentence ends, then at word boundaries.
 * Deterministic, and every non-whitespace character of `ex.text` (but those of a `splitter`) ends up
 * in exactly one paragraph, whose `text` is `ex.text.slice(start, end)`.
 */
export function splitParagraphs(ex: Extracted, opts: SplitOptions = {}): SplitParagraph[] {
  const max = Math.max(16, Math.floor(opts.maxChars ?? DEFAULT_MAX_CHARS));
  const text = ex.text;
  const kind = ex.kind ?? "TEXT";
  const pages = [...(ex.pages ?? [])].sort((a, b) => a.start - b.start);
  const tables = [...(ex.tables ?? [])].sort((a, b) => a.start - b.start);
  const out: SplitParagraph[] = [];
  const emit = (s: number, e: number, table: boolean) => {
    [s, e] = trim(text, s, e);
    if (e <= s) return;
    const page_number = pageOf(pages, s);
    const k = ex.ocr?.some((o) => o.start <= s && s < o.end) ? "OCR" : kind;
    out.push({ start: s, end: e, text: text.slice(s, e), page_number, index: out.length, kind: k, is_a_table: table });
  };
  const bounds = boundaries(ex, pages, tables);
  let t = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const s = bounds[i];
    const e = bounds[i + 1];
    while (t < tables.length && tables[t].end <= s) t++;
    const inTable = t < tables.length && tables[t].start <= s && s < tables[t].end;
    const parts = opts.splitter ? pieces(text, s, e, opts.splitter) : blocks(text, s, e);
    for (const [bs, be] of parts) chunk(text, bs, be, max, inTable, emit);
  }
  return out;
}

/** Sorted unique offsets that no paragraph may cross. */
function boundaries(ex: Extracted, pages: PageSpan[], tables: { start: number; end: number }[]): number[] {
  const n = ex.text.length;
  const set = new Set<number>([0, n]);
  const text = ex.text;
  const add = (o: number) => {
    if (!Number.isInteger(o) || o <= 0 || o >= n) return;
    // Never between the two halves of a surrogate pair.
    const c = text.charCodeAt(o - 1);
    set.add(c >= 0xd800 && c <= 0xdbff ? o + 1 : o);
  };
  for (const b of ex.breaks ?? []) add(b);
  for (const span of [...pages, ...tables]) {
    add(span.start);
    add(span.end);
  }
  return [...set].sort((a, b) => a - b);
}

const BLANK_LINE = /\n[^\S\n]*\n/g;

/** Blank-line separated blocks of text[s, e). */
function blocks(text: string, s: number, e: number): [number, number][] {
  const out: [number, number][] = [];
  BLANK_LINE.lastIndex = s;
  let from = s;
  for (;;) {
    const m = BLANK_LINE.exec(text);
    if (!m || m.index >= e) break;
    out.push([from, m.index]);
    from = m.index + m[0].length;
    if (from >= e) break;
  }
  if (from < e) out.push([from, e]);
  return out;
}

/** The pieces of text[s, e) between occurrences of a literal separator. */
function pieces(text: string, s: number, e: number, sep: string): [number, number][] {
  const out: [number, number][] = [];
  let from = s;
  for (let at = text.indexOf(sep, s); at !== -1 && at + sep.length <= e; at = text.indexOf(sep, from)) {
    out.push([from, at]);
    from = at + sep.length;
  }
  if (from < e) out.push([from, e]);
  return out;
}

type Emit = (s: number, e: number, table: boolean) => void;

/** Emits text[s, e) as paragraphs of at most `max` characters. */
function chunk(text: string, s: number, e: number, max: number, table: boolean, emit: Emit): void {
  [s, e] = trim(text, s, e);
  while (e - s > max) {
    const cut = findCut(text, s, s + max, max, table);
    emit(s, cut, table);
    s = cut;
    while (s < e && isSpace(text.charCodeAt(s))) s++;
  }
  if (e > s) emit(s, e, table);
}

/** Where to end a paragraph that starts at `s` and may not pass `limit`. */
function findCut(text: string, s: number, limit: number, max: number, table: boolean): number {
  const floor = s + Math.floor(max * MIN_CUT_FRACTION);
  if (table) {
    const nl = text.lastIndexOf("\n", limit);
    if (nl > floor) return nl;
  } else {
    for (let p = limit; p > floor; p--) if (isSentenceEnd(text, p)) return p;
  }
  for (let p = limit; p > floor; p--) if (isSpace(text.charCodeAt(p))) return p;
  // No word boundary (e.g. a long token): cut anywhere, but never inside a surrogate pair.
  const c = text.charCodeAt(limit - 1);
  return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
}

const CLOSERS = new Set([0x22, 0x27, 0x29, 0x5d, 0xbb, 0x2019, 0x201d]); // " ' ) ] » ’ ”
const CJK_STOPS = new Set([0x3002, 0xff01, 0xff1f]); // 。！？

/** True when a sentence ends just before `p` (punctuation, optional closers, then whitespace). */
function isSentenceEnd(text: string, p: number): boolean {
  const prev = text.charCodeAt(p - 1);
  if (CJK_STOPS.has(prev)) return true;
  if (!isSpace(text.charCodeAt(p))) return false;
  let q = p - 1;
  while (q > 0 && CLOSERS.has(text.charCodeAt(q))) q--;
  const c = text.charCodeAt(q);
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026 || c === 0x3b; // . ! ? … ;
}

function trim(text: string, s: number, e: number): [number, number] {
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return [s, e];
}

/** The same characters as the regex class \s. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The page holding offset `o` (the last page starting at or before it); 0 without pages. */
function pageOf(pages: PageSpan[], o: number): number {
  if (pages.length === 0) return 0;
  let lo = 0;
  let hi = pages.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pages[mid].start <= o) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best === -1 ? pages[0].page : pages[best].page;
}
