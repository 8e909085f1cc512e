/**
 * Unicode character classes by code point, for the scanners that read every word of every document
 * (analyzer.ts, the entity tagger): a table filled on first sight of each code point from the
 * Unicode properties, so a scan needs no regular expression and no match object per word.
 */

/** A letter (\p{L}). */
export const LETTER = 1;
/** A digit or other number (\p{N}). */
export const NUMBER = 2;
/** A combining mark (\p{M}). */
export const MARK = 4;
const KNOWN = 8;

const CLASSES = new Uint8Array(0x110000);
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const IS_MARK = /^\p{M}$/u;

/** The classes of a code point (LETTER, NUMBER, MARK bits; none for the others). */
export function classOf(cp: number): number {
  let c = CLASSES[cp];
  if (!c) {
    const s = String.fromCodePoint(cp);
    c = KNOWN | (IS_LETTER.test(s) ? LETTER : 0) | (IS_NUMBER.test(s) ? NUMBER : 0) | (IS_MARK.test(s) ? MARK : 0);
    CLASSES[cp] = c;
  }
  return c;
}

/** The code point at `i` (a surrogate pair as one; a lone surrogate as itself, which is of no class). */
export function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return c;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000 : c;
}

/** The code units a code point takes. */
export const width = (cp: number): number => (cp > 0xffff ? 2 : 1);

/** The end of the run of code points from `i` whose classes meet `mask` (`i` itself when none). */
export function runEnd(text: string, i: number, mask: number): number {
  let j = i;
  while (j < text.length) {
    const cp = codePointAt(text, j);
    if (!(classOf(cp) & mask)) break;
    j += width(cp);
  }
  return j;
}
