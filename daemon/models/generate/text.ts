/** Sentence splitting and term analysis shared by the extractive answerer, citations and rephrasing. */

export interface Sentence {
  text: string;
  /** Character offsets in the source text. */
  start: number;
  end: number;
}

const ABBREV = /(?:\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|inc|ltd|no|fig|st|approx)\.|\b[A-Z]\.)$/i;

/** Split text into sentences with offsets; line breaks and list items end sentences too. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const re = /[.!?。！？]+["')\]]*(?=\s+|$)|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/g;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (/[.]$/.test(m[0]) && ABBREV.test(text.slice(Math.max(0, m.index - 6), m.index + 1))) continue;
    push(out, text, start, end);
    start = end;
  }
  push(out, text, start, text.length);
  return out;
}

function push(out: Sentence[], text: string, start: number, end: number): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  if (e - s >= 2 && /[\p{L}\p{N}]/u.test(text.slice(s, e))) out.push({ text: text.slice(s, e), start: s, end: e });
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
      w = w.slice(0, -suf.length);
      if (suf === "es" && !/(?:s|x|z|ch|sh)$/.test(w)) w += "e";
      break;
    }
  }
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
