/** Sentence splitting and term analysis shared by the extractive answerer, citations and rephrasing. */

export interface Sentence {
  text: string;
  /** Character offsets in the source text. */
  start: number;
  end: number;
  /** A heading line (short, no closing punctuation, standing on its own line): context, never an answer. */
  heading?: boolean;
}

/** Words that end with a full stop without ending the sentence (compared lower-cased, without the stop). */
const ABBREVIATIONS = new Set(
  (
    "e.g eg i.e ie etc vs cf al approx ca resp esp incl excl viz mr mrs ms dr prof sr jr st no nos fig figs vol vols " +
    "ch sec sect p pp ed eds inc ltd co corp dept est min max e.t.c a.k.a aka u.s u.k"
  ).split(" "),
);

/** Spans of inline code (`…`), where a `.` never ends a sentence. */
function codeSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(/`[^`\n]+`/g)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** An option line of a manual: `-r, --raw-output`, `--files-without-match`, `-n NUM`. */
export const OPTION_LINE =
  /^\s*(?:-{1,2}[\w?][\w-]*(?:[ =][\w<>[\]|.{}-]+)?(?:,\s*|\s*\/\s*|\s+or\s+|[ \t]+(?=-)|:?[ \t]*(?:\n|$)|\s{2,}))+/;

function isHeadingLine(line: string, prev: string | undefined, next: string | undefined): boolean {
  const t = line.trim();
  if (!t || t.length > 60 || /[.,;:!?)\]"'’]$/.test(t) || /^[-*•+]|^\d+[.)]\s/.test(t) || OPTION_LINE.test(t)) return false;
  if (/^#{1,6}\s/.test(t)) return true;
  // A manual's section heading: upper case (MEMORY MANAGEMENT), whatever follows.
  if (/^[\p{Lu}\d][\p{Lu}\d &/'-]*$/u.test(t) && /\p{Lu}{3}/u.test(t)) return true;
  if (!/[\p{L}]/u.test(t) || t.split(/\s+/).length > 10 || /\b(1[5-9]|20)\d\d\b/.test(t)) return false;
  if (/\b(?:the|a|an|of|and|or|to|with|in|for|is|are)$/i.test(t)) return false;
  const prevEnds = prev === undefined || !prev.trim() || /[.!?:]["')\]]*\s*$/.test(prev) || isBareHeading(prev);
  const nextStarts = next === undefined || !next.trim() || /^\s*(?:[\p{Lu}\d"'`(]|-)/u.test(next);
  return prevEnds && nextStarts;
}

const isBareHeading = (l: string) => /^\s*#{1,6}\s/.test(l);

/**
 * Split text into sentences with offsets. A `.` ends a sentence unless it closes an abbreviation
 * (e.g., i.e., etc.), an initial, or sits in inline code; blank lines, list items and heading lines
 * end sentences too. An option line (`-r, --raw-output`) stays with the description that follows it.
 */
export function splitSentences(text: string): Sentence[] {
  const cuts = new Map<number, boolean>(); // offset → the sentence ending there is a heading
  const code = codeSpans(text);
  const inCode = (i: number) => code.some(([s, e]) => i > s && i < e - 1);
  const re = /[.!?。！？]+["')\]]*(?=\s|$)|\n\s*\n|\n(?=[ \t]*(?:[-*•+]|\d+[.)])\s)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (/^[.]/.test(m[0]) && m[0].length === 1) {
      if (inCode(m.index)) continue;
      const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, m.index - 12), m.index))?.[1]?.toLowerCase() ?? "";
      if (
        ABBREVIATIONS.has(word) ||
        ABBREVIATIONS.has(word.replace(/^.*\.(?=[^.]+$)/, "")) ||
        (/^\p{Lu}$/u.test(text[m.index - 1] ?? "") && !/[\p{L}]/u.test(text[m.index - 2] ?? " "))
      )
        continue;
      // "v1.2. Next" ends; "1. item" at a line start is a list number, not an end.
      if (/(?:^|\n)[ \t]*\d+$/.test(text.slice(Math.max(0, m.index - 6), m.index))) continue;
    }
    cuts.set(end, false);
  }
  // Heading lines stand alone: cut before and after them.
  const lines = text.split("\n");
  let off = 0;
  lines.forEach((line, i) => {
    if (isHeadingLine(line, lines[i - 1], lines[i + 1])) {
      if (off > 0) cuts.set(off, cuts.get(off) ?? false);
      cuts.set(off + line.length, true);
    }
    off += line.length + 1;
  });
  const out: Sentence[] = [];
  let start = 0;
  for (const [end, heading] of [...cuts.entries()].sort((a, b) => a[0] - b[0])) {
    if (end <= start) continue;
    push(out, text, start, end, heading);
    start = end;
  }
  push(out, text, start, text.length, false);
  return out;
}

function push(out: Sentence[], text: string, start: number, end: number, heading: boolean): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  if (e - s < 2 || !/[\p{L}\p{N}]/u.test(text.slice(s, e))) return;
  const sentence: Sentence = { text: text.slice(s, e), start: s, end: e };
  if (heading && !/[.!?]$/.test(sentence.text)) sentence.heading = true;
  out.push(sentence);
}

/** A sentence as an answer shows it: hard line breaks, indentation and markdown heading marks gone. */
export function cleanSentence(text: string): string {
  return text
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/\s+/g, " ")
    .trim();
}

export const STOPWORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being " +
    "do does did doing have has had having i me my we our you your he him his she her it its they them their this that " +
    "these those there here what which who whom whose when where why how can could should would will shall may might must " +
    "not no nor so than too very just also any all some each both few more most other such only own same s t don now " +
    "tell please explain describe give know like get got say says said one ones thing things much many"
  ).split(" "),
);

/** Light suffix stripping so that "ships"/"shipping"/"shipped" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  for (const suf of ["ing", "edly", "ed", "es", "ly", "s"]) {
    if (w.length - suf.length >= 3 && w.endsWith(suf)) {
      // "compress", "status", "analysis" are not plurals.
      if (suf === "s" && /(?:ss|us|is)$/.test(w)) break;
      w = w.slice(0, -suf.length);
      if (suf === "es" && !/(?:s|x|z|ch|sh)$/.test(w)) w += "e";
      break;
    }
  }
  // "compression" meets "compress", "decompressing" meets "decompression".
  if (w.length >= 7 && w.endsWith("ion")) w = w.slice(0, -3);
  // "replace" meets "replaced" and "replacing".
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Lower-cased word tokens, unfiltered. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/** Content terms: words minus stop words, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
}

/** Jaccard similarity of two term sets (near-duplicate detection). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Names in a question: capitalised inside it, with a digit or a dot, or short non-words (xz, zstd, ls, gcc). */
export function questionNames(question: string): Set<string> {
  const out = new Set<string>();
  const tokens = question.match(/[\p{L}\p{N}][\p{L}\p{N}._+-]*/gu) ?? [];
  tokens.forEach((tok, i) => {
    const t = tok.replace(/[._+-]+$/, "");
    const capital = i > 0 && /^\p{Lu}/u.test(t);
    const short = /^[a-z]+$/.test(t) && ((t.length <= 3 && !COMMON_SHORT.has(t)) || (t.length <= 6 && !/[aeiouy]/.test(t)));
    if (capital || /\d/.test(t) || /[._+-]/.test(t) || short) for (const w of terms(t)) out.add(w);
  });
  return out;
}

/** Short words that are not names. */
const COMMON_SHORT = new Set(
  (
    "use dot end top key log tab run set get add new old big day way age box cut map max min net raw sum tag row lid bit pin fix mix " +
    "out put let see ask act buy pay try job law oil sea war air art bed car cat dog eye fun gas hat ice kid leg man men pen pot sun " +
    "tea toy van web win yes low own far few hot red sky arm ear lot per via due off via bad job fit hit sit cup"
  ).split(" "),
);

/** Words that say what kind of answer is wanted rather than what it is about. */
export const FRAME_WORDS = new Set(
  "way use used using mean meaning happen work need make possible difference example type kind purpose default find show want best command option flag switch"
    .split(" ")
    .map(stem),
);

/** Whether a text states a number (not a digit inside a word such as bzip2, nor a manual section such as ls(1)). */
export function hasNumber(text: string): boolean {
  return /(?<![\p{L}\d(])\d/u.test(text.replace(/\(\d\w?\)/g, ""));
}

/** Not answers: tables of contents (dot leaders, page numbers), page furniture, lists of manual references. */
export function isFurniture(text: string): boolean {
  if (/\.{4,}|(?:\s\.){4,}|…{2,}/.test(text)) return true;
  if (/^\s*(?:page\s+)?\d+(?:\s+of\s+\d+)?\s*$/i.test(text)) return true;
  const w = words(text);
  if (w.length > 3 && w.filter((x) => /^\d+$/.test(x)).length / w.length > 0.5) return true;
  // SEE ALSO: gzip(1), xz(1), zstd(1).
  const refs = text.match(/[\w.+-]+\(\d\w?\)/g)?.length ?? 0;
  return refs >= 3 && refs * 2 >= w.length / 2;
}
