import { describe, expect, test } from "vitest";
import { DEFAULT_MAX_CHARS, splitParagraphs } from "../../../daemon/ingest/split.js";
import type { Extracted, SplitParagraph } from "../../../daemon/ingest/types.js";
import { paragraphs, rng } from "../../fixtures/corpus.js";

const PIECES = [
  "word",
  "Sentence ends here.",
  "Question?",
  "Wow!",
  "(quoted.)",
  "«Cité.»",
  "naïve",
  "日本語の文。",
  "続き！",
  "emoji😀here",
  "🎉",
  "x".repeat(1500),
  "a-very-long-token-".repeat(20),
  "\t",
  "\u00a0",
  "…",
];

/** A random document mixing words, punctuation, single and blank lines, long tokens and astral characters. */
function randomDoc(seed: number): Extracted {
  const rand = rng(seed);
  const parts: string[] = [];
  const n = 20 + Math.floor(rand() * 400);
  for (let i = 0; i < n; i++) {
    parts.push(PIECES[Math.floor(rand() * PIECES.length)]);
    const r = rand();
    parts.push(r < 0.7 ? " " : r < 0.85 ? "\n" : r < 0.95 ? "\n\n" : " \n \n\n ");
  }
  const text = (rand() < 0.5 ? "  \n" : "") + parts.join("");
  const len = text.length;
  // Extractors never put a boundary inside a surrogate pair; neither do these random ones.
  const at = () => {
    const o = Math.floor(rand() * len);
    return isHighSurrogate(text.charCodeAt(o - 1)) ? o + 1 : o;
  };
  const cuts = Array.from({ length: 6 }, at).sort((a, b) => a - b);
  const ex: Extracted = { text, metadata: {} };
  if (rand() < 0.6) {
    ex.pages = [
      { start: 0, end: cuts[1], page: 1 },
      { start: cuts[1], end: cuts[4], page: 2 },
      { start: cuts[4], end: len, page: 3 },
    ];
  }
  if (rand() < 0.6)
    ex.tables = [
      { start: cuts[0], end: cuts[2] },
      { start: cuts[3], end: cuts[5] },
    ];
  if (rand() < 0.6) ex.breaks = Array.from({ length: 5 }, at);
  return ex;
}

const nonSpace = (s: string) => s.replace(/\s+/g, "");
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Every invariant the splitter promises; returns the violations (plain checks: expect() per paragraph is slow). */
function violations(ex: Extracted, ps: SplitParagraph[], max: number): string[] {
  const bad: string[] = [];
  const check = (ok: boolean, what: string, p?: SplitParagraph) => {
    if (!ok) bad.push(`${what}${p ? ` at paragraph ${p.index} [${p.start},${p.end})` : ""}`);
  };
  let prevEnd = 0;
  let covered = "";
  ps.forEach((p, i) => {
    check(p.index === i, "index not sequential", p);
    check(p.text === ex.text.slice(p.start, p.end), "text is not the slice of its offsets", p);
    check(p.text.length > 0 && p.text.length <= max, "size out of bounds", p);
    check(p.text === p.text.trim(), "not trimmed", p);
    check(p.start >= prevEnd, "overlaps the previous paragraph", p);
    // What lies between paragraphs is whitespace only: nothing is lost.
    check(ex.text.slice(prevEnd, p.start).trim() === "", "non-whitespace text lost before", p);
    check(!isHighSurrogate(ex.text.charCodeAt(p.end - 1)), "ends inside a surrogate pair", p);
    covered += p.text;
    prevEnd = p.end;
    for (const b of ex.breaks ?? []) check(!(b > p.start && b < p.end), `crosses break ${b}`, p);
    const page = ex.pages?.find((pg) => pg.start <= p.start && p.start < pg.end);
    check(p.page_number === (page ? page.page : 0), "wrong page number", p);
    if (page) check(p.end <= page.end, "crosses a page end", p);
    const table = ex.tables?.find((t) => t.start <= p.start && p.start < t.end);
    check(p.is_a_table === !!table, "wrong is_a_table", p);
    if (table) check(p.end <= table.end, "crosses a table end", p);
    else for (const t of ex.tables ?? []) check(!(t.start > p.start && t.start < p.end), "crosses a table start", p);
  });
  check(ex.text.slice(prevEnd).trim() === "", "text lost at the end");
  check(nonSpace(covered) === nonSpace(ex.text), "non-whitespace characters differ");
  return bad;
}

describe("splitParagraphs", () => {
  test("property: no lost text, exact offsets, maximum size, pages, tables and breaks (300 random documents)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const ex = randomDoc(seed);
      const max = [DEFAULT_MAX_CHARS, 200, 64][seed % 3];
      expect(violations(ex, splitParagraphs(ex, { maxChars: max }), max), `seed ${seed}`).toEqual([]);
    }
  });

  test("deterministic: the same input always gives the same paragraphs", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const a = splitParagraphs(randomDoc(seed), { maxChars: 300 });
      const b = splitParagraphs(structuredClone(randomDoc(seed)), { maxChars: 300 });
      expect(b).toEqual(a);
    }
  });

  test("layout-independent: re-wrapping lines does not move paragraph boundaries", () => {
    const rand = rng(7);
    const text = paragraphs(rand, 30).join("\n\n");
    const wrapped = text.replace(/ /g, () => (rand() < 0.15 ? "\n" : " "));
    const a = splitParagraphs({ text, metadata: {} }, { maxChars: 300 });
    const b = splitParagraphs({ text: wrapped, metadata: {} }, { maxChars: 300 });
    expect(b.map((p) => [p.start, p.end])).toEqual(a.map((p) => [p.start, p.end]));
  });

  test("paragraph breaks first, then sentence ends, then words, then a hard cut", () => {
    const para = "First sentence is here. Second one follows it. Third sentence closes the paragraph.";
    const ps = splitParagraphs({ text: `${para}\n\nShort.`, metadata: {} }, { maxChars: 60 });
    expect(ps.map((p) => p.text)).toEqual([
      "First sentence is here. Second one follows it.",
      "Third sentence closes the paragraph.",
      "Short.",
    ]);
    const words = splitParagraphs({ text: "alpha beta gamma delta epsilon zeta eta theta", metadata: {} }, { maxChars: 20 });
    expect(words.map((p) => p.text)).toEqual(["alpha beta gamma", "delta epsilon zeta", "eta theta"]);
    const token = splitParagraphs({ text: "y".repeat(50), metadata: {} }, { maxChars: 20 });
    expect(token.map((p) => p.text.length)).toEqual([20, 20, 10]);
  });

  test("kind, page numbers and tables come from the extracted value", () => {
    const text = "Title\n\nA | B\n1 | 2\n\nAfter the table.";
    const ex: Extracted = {
      text,
      kind: "DESCRIPTION",
      metadata: {},
      tables: [{ start: 7, end: 18 }],
      pages: [
        { start: 0, end: 18, page: 1 },
        { start: 20, end: text.length, page: 2 },
      ],
    };
    const ps = splitParagraphs(ex);
    expect(ps.map((p) => [p.text, p.page_number, p.is_a_table, p.kind])).toEqual([
      ["Title", 1, false, "DESCRIPTION"],
      ["A | B\n1 | 2", 1, true, "DESCRIPTION"],
      ["After the table.", 2, false, "DESCRIPTION"],
    ]);
  });

  test("long tables split at row boundaries", () => {
    const rows = Array.from({ length: 100 }, (_, i) => `row ${i} | value ${i * 7}`);
    const text = rows.join("\n");
    const ps = splitParagraphs({ text, metadata: {}, tables: [{ start: 0, end: text.length }] }, { maxChars: 200 });
    expect(ps.length).toBeGreaterThan(5);
    for (const p of ps) {
      expect(p.is_a_table).toBe(true);
      expect(p.text.split("\n").every((l) => /^row \d+ \| value \d+$/.test(l))).toBe(true);
    }
  });

  test("empty and whitespace-only text give no paragraphs", () => {
    expect(splitParagraphs({ text: "", metadata: {} })).toEqual([]);
    expect(splitParagraphs({ text: " \n\n\t ", metadata: {}, breaks: [2], pages: [{ start: 0, end: 5, page: 1 }] })).toEqual([]);
  });

  test("throughput (printed, not asserted)", () => {
    const rand = rng(3);
    const base = paragraphs(rand, 2000).join("\n\n");
    const text = base.repeat(Math.ceil((20 * 1024 * 1024) / base.length));
    const t0 = performance.now();
    const ps = splitParagraphs({ text, metadata: {} });
    const secs = (performance.now() - t0) / 1000;
    const mb = text.length / 1024 / 1024;
    console.log(
      `splitParagraphs: ${mb.toFixed(1)} MB in ${secs.toFixed(2)} s = ${(mb / secs).toFixed(1)} MB/s, ${Math.round(ps.length / secs)} paragraphs/s`,
    );
    expect(ps.length).toBeGreaterThan(0);
  });
});
