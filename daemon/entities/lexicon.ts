/**
 * The word lists the entity tagger reads (tagger.ts): the lexicon of the `compromise` NLP library
 * (about 25,000 English words with their tags: first names, places, organisations, months, verbs...),
 * its organisation and place head words, reduced to a bit mask per word. The build reduces it once
 * into a file next to the compiled module (`lexicon.json`: scripts/pack-lexicon.mjs), read in about
 * 20 ms at the first extraction where loading the library and reducing its lexicon took over 300 ms
 * of the daemon's thread (and kept the library in its heap); without that file, or with one packed
 * from another version of the library, the lexicon is reduced from the library as before.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What a word can be, as bits of its lexicon entry. */
export const W = {
  FIRST: 1 << 0,
  LAST: 1 << 1,
  PERSON: 1 << 2,
  PLACE: 1 << 3,
  ORG: 1 << 4,
  MONTH: 1 << 5,
  WEEKDAY: 1 << 6,
  DATE: 1 << 7,
  NUMWORD: 1 << 8,
  MULTIPLE: 1 << 9,
  VERB: 1 << 10,
  /** Any other part of speech: a capitalised word that is one of these starts a sentence, it names nothing. */
  COMMON: 1 << 11,
  ORG_HEAD: 1 << 12,
  PLACE_HEAD: 1 << 13,
  HONORIFIC: 1 << 14,
  ORDINAL: 1 << 15,
  /** Function words (the, of, she, who, not...): never part of a name. */
  FUNC: 1 << 16,
} as const;

export interface Lexicon {
  /** Bits by lower-case word (single words). */
  words: Map<string, number>;
  /** Bits of multi-word names (`new york`, `bank of america`), by their words joined with one space. */
  multi: Map<string, number>;
  /** The most words a multi-word entry has. */
  maxWords: number;
}

/** The library's tags, by the bit they set (a tag's parents count: City is a Place). */
const TAGS: [string, number][] = [
  ["FirstName", W.FIRST],
  ["LastName", W.LAST],
  ["Person", W.PERSON],
  ["Place", W.PLACE],
  ["Organization", W.ORG],
  ["Month", W.MONTH],
  ["WeekDay", W.WEEKDAY],
  ["Date", W.DATE],
  ["Ordinal", W.ORDINAL],
  ["TextValue", W.NUMWORD],
  ["Cardinal", W.NUMWORD],
  ["Multiple", W.MULTIPLE],
  ["Verb", W.VERB],
  ["Determiner", W.FUNC],
  ["Preposition", W.FUNC],
  ["Conjunction", W.FUNC],
  ["Pronoun", W.FUNC],
  ["QuestionWord", W.FUNC],
  ["Possessive", W.FUNC],
  ["Negative", W.FUNC],
  ["Adverb", W.FUNC],
  ["Copula", W.FUNC],
  ["Modal", W.FUNC],
];

/** Titles before a name (`Dr. Ada Smith`); the library's own list holds many other abbreviations. */
const HONORIFICS = "mr mrs ms miss mx dr prof sir dame lord lady rev fr sen gov gen capt lt sgt col maj president judge"
  .split(" ")
  .map((w) => [w, W.HONORIFIC] as const);

/** Month names the lexicon leaves out because they are also common words. */
const AMBIGUOUS_MONTHS = ["march", "may"];

let cached: Lexicon | undefined;

/** Where the build writes the reduced lexicon: next to this module, in dist/. */
const PACKED_FILE = new URL("./lexicon.json", import.meta.url);
const FORMAT = 1;

const require = createRequire(import.meta.url);

/** What a packed lexicon must have been reduced from: the installed library's version and build size. */
function libraryStamp(): string {
  const main = require.resolve("compromise");
  const pkg = JSON.parse(readFileSync(join(dirname(main), "..", "..", "package.json"), "utf8")) as { version: string };
  return `${pkg.version}/${statSync(main).size}`;
}

/** The lexicon, reduced from the library or read from the file the build packed (see the module's comment). */
export function lexicon(): Lexicon {
  cached ??= readPacked(PACKED_FILE) ?? fromLibrary();
  return cached;
}

/** The packed file's lexicon; undefined when there is none or it was packed from another version of the library. */
export function readPacked(file: string | URL): Lexicon | undefined {
  try {
    const p = JSON.parse(readFileSync(file, "utf8")) as {
      format: number;
      library: string;
      maxWords: number;
      words: [string, number][];
      multi: [string, number][];
    };
    if (p.format !== FORMAT || p.library !== libraryStamp()) return undefined;
    return { words: new Map(p.words), multi: new Map(p.multi), maxWords: p.maxWords };
  } catch {
    return undefined;
  }
}

/** The lexicon as the packed file holds it, stamped with the installed library's version. */
export function packLexicon(lex: Lexicon): string {
  return JSON.stringify({
    format: FORMAT,
    library: libraryStamp(),
    maxWords: lex.maxWords,
    words: [...lex.words],
    multi: [...lex.multi],
  });
}

/** Reduce the library's lexicon (about 30 MB loaded, over 300 ms). */
export function fromLibrary(): Lexicon {
  const nlp = require("compromise");
  const model = (
    nlp as {
      model(): {
        one: { lexicon: Record<string, string | string[]>; tagSet: Record<string, { parents?: string[] }> };
        two: { orgWords: Record<string, unknown>; placeWords: Record<string, unknown> };
      };
    }
  ).model();
  const tagSet = model.one.tagSet;
  const bitsOfTag = new Map<string, number>();
  for (const [tag, def] of Object.entries(tagSet)) {
    let bits = 0;
    for (const p of [tag, ...(def.parents ?? [])]) for (const [name, bit] of TAGS) if (p === name) bits |= bit;
    bitsOfTag.set(tag, bits || W.COMMON);
  }
  const words = new Map<string, number>();
  const multi = new Map<string, number>();
  let maxWords = 1;
  for (const [word, tags] of Object.entries(model.one.lexicon)) {
    let bits = 0;
    for (const t of Array.isArray(tags) ? tags : [tags]) bits |= bitsOfTag.get(t) ?? W.COMMON;
    if (word.includes(" ")) {
      multi.set(word, (multi.get(word) ?? 0) | bits);
      maxWords = Math.max(maxWords, word.split(" ").length);
    } else words.set(word, (words.get(word) ?? 0) | bits);
  }
  const add = (w: string, bit: number) => words.set(w, (words.get(w) ?? 0) | bit);
  for (const w of Object.keys(model.two.orgWords)) add(w, W.ORG_HEAD);
  for (const w of Object.keys(model.two.placeWords)) add(w, W.PLACE_HEAD);
  for (const [w, bit] of HONORIFICS) add(w, bit);
  for (const w of AMBIGUOUS_MONTHS) add(w, W.MONTH);
  return { words, multi, maxWords: Math.min(maxWords, 4) };
}
