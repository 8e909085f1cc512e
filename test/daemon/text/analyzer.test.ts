import { describe, expect, it } from "vitest";
import { analyze, words } from "../../../daemon/text/analyzer.js";

/** What `words` read before it scanned by code point: the expression it stands for. */
const byExpression = (text: string) =>
  [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));

/** A deterministic random text of pieces chosen to sit on every boundary the expression draws. */
function text(seed: number, length: number): string {
  const pieces = [
    "a",
    "Z",
    "7",
    "é",
    "e\u0301",
    "\u0301",
    "ß",
    "İ",
    "ǅ",
    "'",
    "’",
    "''",
    "'s",
    "’t",
    "-",
    " ",
    "  ",
    "\n",
    ".",
    "²",
    "٣",
    "漢字",
    "ー",
    "ｱ",
    "한",
    "𝒳",
    "𠀋",
    "😀",
    "\ud800",
    "\udc00",
    "x\ud83d",
    "Ⅻ",
    "ॐ",
    "क्षि",
    "\u200d",
    "_",
    "rock'n'roll",
    "don't",
    "l'eau",
    "dogs'",
    "12'30",
  ];
  let s = seed;
  let out = "";
  while (out.length < length) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out += pieces[s % pieces.length];
  }
  return out;
}

describe("analyzer words (scanned by code point)", () => {
  it("reads the same words at the same offsets as the expression, on texts built to sit on its boundaries", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const t = text(seed, 1 + (seed % 90));
      expect(words(t), JSON.stringify(t)).toEqual(byExpression(t));
    }
  });

  it("indexes a paragraph as before: terms in order, stop words dropped, apostrophes and accents folded", () => {
    expect(analyze("The Café's owners don't run 3 cafés in Zürich, l'été 2024", "en")).toBe(
      "cafe owner dont run 3 cafe zurich lete 2024",
    );
  });
});
