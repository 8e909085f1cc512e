import { createRequire } from "node:module";
import { stemmer as ar } from "@orama/stemmers/arabic";
import { stemmer as hy } from "@orama/stemmers/armenian";
import { stemmer as bg } from "@orama/stemmers/bulgarian";
import { stemmer as da } from "@orama/stemmers/danish";
import { stemmer as nl } from "@orama/stemmers/dutch";
import { stemmer as fi } from "@orama/stemmers/finnish";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as el } from "@orama/stemmers/greek";
import { stemmer as hu } from "@orama/stemmers/hungarian";
import { stemmer as id } from "@orama/stemmers/indonesian";
import { stemmer as ga } from "@orama/stemmers/irish";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as lt } from "@orama/stemmers/lithuanian";
import { stemmer as ne } from "@orama/stemmers/nepali";
import { stemmer as no } from "@orama/stemmers/norwegian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as ro } from "@orama/stemmers/romanian";
import { stemmer as ru } from "@orama/stemmers/russian";
import { stemmer as sr } from "@orama/stemmers/serbian";
import { stemmer as es } from "@orama/stemmers/spanish";
import { stemmer as sv } from "@orama/stemmers/swedish";
import { stemmer as ta } from "@orama/stemmers/tamil";
import { stemmer as tr } from "@orama/stemmers/turkish";
import { stemmer as uk } from "@orama/stemmers/ukrainian";
import { codePointAt, LETTER, NUMBER, runEnd, width } from "./chars.js";

/** A letter or a digit: what words are made of. */
const WORD = LETTER | NUMBER;

/**
 * Text analysis for keyword search, done here rather than inside LanceDB: LanceDB's full-text
 * index has one language per index and aborts the process on an unknown language name, while a
 * knowledge box mixes languages. Each paragraph is analysed with its own detected language into a
 * space-separated `terms` column that LanceDB indexes with a plain whitespace tokenizer; queries and
 * highlighting use the same analysis, so no language name ever reaches LanceDB.
 */

type Stem = (w: string) => string;
interface Lang {
  stem: Stem;
  stop: Set<string>;
}

// Snowball's English (Porter2) stemmer: better than Porter's original on retrieval benchmarks.
const en = createRequire(import.meta.url)("wink-porter2-stemmer") as Stem;
// stopword ships no type declarations; its lists are plain arrays keyed by ISO 639-3 code.
const lists = createRequire(import.meta.url)("stopword") as Record<string, string[]>;
const L = (stem: Stem, stop: string | string[] | undefined): Lang => ({
  stem,
  stop: new Set((Array.isArray(stop) ? stop : stop ? lists[stop] : []) ?? []),
});

/**
 * English stop words: Lucene's default English set (the analyzer of the BM25 baselines), not the
 * stopword package's 108 words, which drop words that carry meaning in a query ("never", "more",
 * "most", "between", "under", "same"). SciFact keyword nDCG@10 through the ingestion queue: 0.677
 * with the package's list, 0.680 with this one (bench/scifact.ts).
 */
const EN_STOP =
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  );

/** Languages with a stemmer, by ISO 639-1 code. */
const LANGS: Record<string, Lang> = {
  ar: L(ar, "ara"),
  hy: L(hy, "hye"),
  bg: L(bg, "bul"),
  da: L(da, "dan"),
  nl: L(nl, "nld"),
  en: L(en, EN_STOP),
  fi: L(fi, "fin"),
  fr: L(fr, "fra"),
  de: L(de, "deu"),
  el: L(el, "ell"),
  hu: L(hu, "hun"),
  id: L(id, "ind"),
  ga: L(ga, "gle"),
  it: L(it, "ita"),
  lt: L(lt, "lit"),
  ne: L(ne, undefined),
  no: L(no, "nob"),
  nb: L(no, "nob"),
  pt: L(pt, "por"),
  ro: L(ro, "ron"),
  ru: L(ru, "rus"),
  sr: L(sr, undefined),
  es: L(es, "spa"),
  sv: L(sv, "swe"),
  ta: L(ta, undefined),
  tr: L(tr, "tur"),
  uk: L(uk, "ukr"),
};
const NONE: Lang = { stem: (w) => w, stop: new Set() };

/**
 * The analysis language for a detected language code (`en`, `en-US`, `EN`). Text of unknown or
 * unsupported language (short titles often are) is analysed as English, the language every query
 * is also analysed in, so both sides always meet.
 */
export function analysisLanguage(code: string | undefined | null): string {
  const c = (code ?? "").toLowerCase().split(/[-_]/)[0];
  return c in LANGS ? c : "en";
}

/**
 * Each word of `text` as its offsets: a run of letters and digits, and an apostrophe with the letters
 * after it (`don't`, `l'eau`); everything else splits. The same words as the expression
 * `/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu`, read by code point without a match object per word: the
 * analyzer reads every paragraph of every document with it.
 */
export function eachWord(text: string, fn: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const end = runEnd(text, i, WORD);
    if (end === i) {
      i += width(codePointAt(text, i));
      continue;
    }
    const q = end < n ? text.charCodeAt(end) : 0;
    const after = q === 39 || q === 0x2019 ? runEnd(text, end + 1, LETTER) : end;
    // The apostrophe joins only with a letter after it.
    const stop = after > end + 1 ? after : end;
    fn(i, stop);
    i = stop;
  }
}

/** Words with their offsets in the original text: letters and digits, split on everything else (see eachWord). */
export function words(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  eachWord(text, (start, end) => out.push({ word: text.slice(start, end), start, end }));
  return out;
}

/** Lowercase and strip diacritics, so `Café` and `cafe` meet. */
export function fold(word: string): string {
  return word
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/['’]/g, "");
}

// Stemming dominates indexing time and words repeat a lot: memoise terms (bounded), a map per
// language (a key joining language and word was a new string to build and hash for every word).
const TERMS = new Map<string, Map<string, string>>();
let termCount = 0;

/** One word to its index term in `lang`, or "" for a stop word. */
export function term(word: string, lang: string): string {
  let terms = TERMS.get(lang);
  const hit = terms?.get(word);
  if (hit !== undefined) return hit;
  if (termCount >= 200_000) {
    TERMS.clear();
    termCount = 0;
    terms = undefined;
  }
  if (!terms) {
    terms = new Map();
    TERMS.set(lang, terms);
  }
  const t = computeTerm(word, lang);
  terms.set(word, t);
  termCount++;
  return t;
}

function computeTerm(word: string, lang: string): string {
  const l = LANGS[lang] ?? NONE;
  const w = word.toLowerCase();
  if (l.stop.has(w)) return "";
  const f = fold(w);
  if (f.length > 40) return "";
  return fold(l.stem(w)) || f;
}

/** The index terms of a text, in order (stop words dropped), space-separated. */
export function analyze(text: string, lang: string): string {
  const out: string[] = [];
  eachWord(text, (start, end) => {
    const t = term(text.slice(start, end), lang);
    if (t) out.push(t);
  });
  return out.join(" ");
}

/** Terms of a query analysed for each of `langs`, de-duplicated per language. */
export function queryTerms(text: string, langs: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const lang of langs) {
    const seen = new Set<string>();
    for (const w of words(text)) {
      const t = term(w.word, lang);
      if (t) seen.add(t);
    }
    out.set(lang, [...seen]);
  }
  return out;
}

/**
 * The `terms` column of a paragraph: its own terms, preceded by its context's (the resource title)
 * twice. Title words then count as a strong signal for every paragraph of the document, the
 * document-level evidence BM25 over whole documents has and BM25 over paragraphs lacks.
 */
export function keywordTerms(text: string, context: string | undefined, lang: string): string {
  const own = analyze(text, lang);
  if (!context) return own;
  const ctx = analyze(context, lang);
  return ctx ? `${ctx} ${ctx} ${own}` : own;
}
