/**
 * A fast English entity tagger: one pass of a tokenizer over the text, each word looked up in the
 * lexicon (lexicon.ts), then rules over runs of capitalised words (a first name starts a person, a
 * head word like "University" or "River" makes an organisation or a place, a known city is a place),
 * dates (a month with its day and year, a weekday, a year after "in"), numbers and verbs. It reads
 * about 100 times faster than running the library's whole tagger, which made entity extraction most
 * of the cost of indexing a small document (docs/benchmarks.md, "Entities").
 */
import { codePointAt, LETTER, MARK, NUMBER, runEnd, width } from "../text/chars.js";
import { type Lexicon, lexicon, W } from "./lexicon.js";

/** A span of the text with its family: PERSON, LOC, ORG, DATE, NUMBER or VERB. */
export interface Tagged {
  label: "PERSON" | "LOC" | "ORG" | "DATE" | "NUMBER" | "VERB";
  start: number;
  end: number;
}

interface Token {
  start: number;
  /** End of the word without a possessive `'s`. */
  end: number;
  lower: string;
  bits: number;
  cap: boolean;
  /** Written in capitals only, two letters or more. */
  shout: boolean;
  /** Digits (3, 3,000, 2.5%, 1990s, 2024-01-31, 3rd). */
  num: boolean;
  /** First word of a sentence (or of a line). */
  initial: boolean;
  /** Only spaces or tabs since the previous token (no comma, no full stop): the same phrase. */
  joined: boolean;
  /** A comma or nothing, then spaces or tabs, since the previous token ("March 3, 1921"). */
  listed: boolean;
  /** A full stop and a space since the previous token ("J. Smith"). */
  dotSpace: boolean;
  used: boolean;
}

/** What words are made of: letters, marks and numbers. */
const WORDISH = LETTER | MARK | NUMBER;
const isDigit = (c: number) => c >= 48 && c <= 57;
/**
 * The character code at `i`, -1 past the end: reading past the end (NaN) deoptimized the scanner's
 * compiled code, again and again over a batch of notes.
 */
const at = (text: string, i: number) => (i < text.length ? text.charCodeAt(i) : -1);
const digitsEnd = (text: string, i: number) => {
  let j = i;
  while (isDigit(at(text, j))) j++;
  return j;
};

/**
 * The end of the token that starts at `i`, or `i` when none does: ASCII digits with groups of
 * `.,/:-` and digits and an optional `%`, `st`, `nd`, `rd`, `th` or `s` (3, 3,000, 2.5%, 1990s,
 * 2024-01-31, 3rd); else letters, marks and numbers, in runs joined by an apostrophe, a hyphen or an
 * ampersand. The tokens of the expression the tagger used (test/daemon/entities/tagger.test.ts),
 * read by character code without a match object per word.
 */
function tokenEnd(text: string, i: number): number {
  if (isDigit(at(text, i))) {
    let j = digitsEnd(text, i);
    for (
      let c = at(text, j);
      (c === 46 || c === 44 || c === 47 || c === 58 || c === 45) && isDigit(at(text, j + 1));
      c = at(text, j)
    )
      j = digitsEnd(text, j + 1);
    const a = at(text, j);
    const b = at(text, j + 1);
    if (a === 37) return j + 1; // %
    if ((a === 115 && b === 116) || (a === 110 && b === 100) || (a === 114 && b === 100) || (a === 116 && b === 104))
      return j + 2; // st nd rd th
    return a === 115 ? j + 1 : j; // s
  }
  let j = runEnd(text, i, WORDISH);
  if (j === i) return i;
  for (let c = at(text, j); c === 39 || c === 0x2019 || c === 45 || c === 38; c = at(text, j)) {
    const k = runEnd(text, j + 1, WORDISH);
    if (k === j + 1) break;
    j = k;
  }
  return j;
}

/** Each token of `text` as its offsets (see tokenEnd). */
export function eachToken(text: string, fn: (start: number, end: number) => void): void {
  let i = 0;
  while (i < text.length) {
    const end = tokenEnd(text, i);
    if (end === i) i += width(codePointAt(text, i));
    else {
      fn(i, end);
      i = end;
    }
  }
}
const UPPER = /^\p{Lu}/u;
/** Ends in a possessive `'s` (straight or curly apostrophe). */
function possessive(lower: string): boolean {
  const n = lower.length;
  if (n < 2 || lower.charCodeAt(n - 1) !== 115) return false;
  const c = lower.charCodeAt(n - 2);
  return c === 39 || c === 0x2019;
}
/** Words before a year that make it a date ("in 1921"). */
const YEAR_BEFORE = new Set([
  "in",
  "since",
  "until",
  "till",
  "by",
  "from",
  "during",
  "before",
  "after",
  "of",
  "circa",
  "around",
  "to",
]);
/** Lower-case particles inside a person's name (Ludwig van Beethoven). */
const NAME_PARTICLES = new Set(["van", "von", "der", "den", "de", "da", "del", "della", "di", "du", "le", "la", "bin", "al"]);
const NOT_DATES = new Set(["ago", "oneday", "someday"]);
/** Months that are also common words. */
const AMBIGUOUS_MONTHS = new Set(["march", "may"]);
/** Abbreviations inside a name whose full stop ends nothing (St. Louis, Mt. Everest, J. Smith). */
const INNER_ABBREV = new Set(["st", "mt", "ft", "jr", "sr"]);
/** First words of place names (St. Louis, Mount Everest, Lake Geneva, San Diego). */
const PLACE_PREFIX = new Set(["st", "mt", "mount", "lake", "cape", "port", "fort", "ft", "san", "santa", "saint"]);
const abbreviation = (t: Token) => t.end - t.start === 1 || INNER_ABBREV.has(t.lower);

/** What the characters between two tokens hold, as the bits gapOf reads by code (no string of them per word). */
const GAP = {
  /** Only spaces and tabs, at least one. */
  SPACES: 1,
  /** An optional comma, then only spaces and tabs, at least one. */
  LISTED: 2,
  /** Exactly ". ". */
  DOT_SPACE: 4,
  /** Starts with a full stop. */
  DOT_FIRST: 8,
  /** Exactly one space. */
  ONE_SPACE: 16,
  /** Holds . ! ? : ; or a line break. */
  SENTENCE_END: 32,
} as const;

/** The GAP bits of the characters of `text` from `from` to `to`. */
function gapOf(text: string, from: number, to: number): number {
  if (from >= to) return 0;
  let blanks = 0;
  let end = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) blanks++;
    else if (c === 46 || c === 33 || c === 63 || c === 58 || c === 59 || c === 10) end = true;
  }
  const n = to - from;
  const first = text.charCodeAt(from);
  let bits = end ? GAP.SENTENCE_END : 0;
  if (blanks === n) bits |= GAP.SPACES | GAP.LISTED;
  else if (first === 44 && blanks === n - 1 && n > 1) bits |= GAP.LISTED;
  if (first === 46) bits |= GAP.DOT_FIRST;
  if (n === 2 && first === 46 && text.charCodeAt(from + 1) === 32) bits |= GAP.DOT_SPACE;
  if (n === 1 && first === 32) bits |= GAP.ONE_SPACE;
  return bits;
}

/** Upper-case ASCII letters in `text` between `start` and `end`, and lower-case ones (bit 1, bit 2); 4 when it holds other characters. */
function asciiCase(text: string, start: number, end: number): number {
  let bits = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) bits |= 1;
    else if (c >= 97 && c <= 122) bits |= 2;
    else if (c >= 128) return 4;
  }
  return bits;
}

function tokenize(text: string, lex: Lexicon): Token[] {
  const out: Token[] = [];
  let last = 0;
  eachToken(text, (start, wordEnd) => {
    const gap = gapOf(text, last, start);
    last = wordEnd;
    let end = wordEnd;
    const first = text.charCodeAt(start);
    const num = isDigit(first);
    // ASCII words (most) are read by code: no upper-cased copy to compare with, no lower-cased one when in lower case.
    const kase = asciiCase(text, start, wordEnd);
    const word = text.slice(start, wordEnd);
    const lowered = kase & 5 ? word.toLowerCase() : word;
    let lower = lowered;
    if (possessive(lower)) {
      end -= 2;
      lower = lower.slice(0, -2);
    }
    const prev = out[out.length - 1];
    // "Dr. Smith", "J. Smith": the full stop of an abbreviation ends no sentence.
    const abbrev = prev && gap & GAP.DOT_FIRST && (prev.bits & W.HONORIFIC || abbreviation(prev));
    const cased = kase === 4 ? word !== lowered : (kase & 1) === 1;
    const upper = kase === 4 ? word === word.toUpperCase() : (kase & 2) === 0;
    out.push({
      start,
      end,
      lower,
      bits: num ? 0 : (lex.words.get(lower) ?? 0),
      cap: !num && (first < 128 ? first >= 65 && first <= 90 : UPPER.test(word)),
      shout: !num && cased && word.length > 1 && upper,
      num,
      initial: !prev || (!(gap & GAP.ONE_SPACE) && Boolean(gap & GAP.SENTENCE_END) && !abbrev),
      joined: (gap & GAP.SPACES) !== 0,
      listed: (gap & GAP.LISTED) !== 0,
      dotSpace: (gap & GAP.DOT_SPACE) !== 0,
      used: false,
    });
  });
  return out;
}

const isYear = (t: Token) => t.num && /^\d{4}$/.test(t.lower) && Number(t.lower) >= 1000 && Number(t.lower) <= 2100;
const isDay = (t: Token) => t.num && /^\d{1,2}(st|nd|rd|th)?$/.test(t.lower) && Number.parseInt(t.lower, 10) <= 31;
/** A month name: "march" and "may" only capitalised, next to a day or a year, or after "in". */
function isMonth(toks: Token[], i: number): boolean {
  const t = toks[i];
  if (!(t.bits & W.MONTH)) return false;
  if (!AMBIGUOUS_MONTHS.has(t.lower)) return true;
  if (!t.cap) return false;
  const next = toks[i + 1];
  return Boolean((next?.joined && next.num) || (i > 0 && toks[i - 1].lower === "in" && !t.initial));
}

function datesAndNumbers(toks: Token[], out: Tagged[]): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.used) continue;
    let j = i;
    if (isMonth(toks, i)) {
      // 3 March 1921 / March 3, 1921 / March 1921
      if (i > 0 && isDay(toks[i - 1]) && !toks[i - 1].used && t.joined) {
        j = i - 1;
        toks[j].used = true;
      }
      let k = i + 1;
      if (toks[k] && isDay(toks[k]) && toks[k].joined) k++;
      if (toks[k] && isYear(toks[k]) && toks[k].listed) k++;
      for (let x = i; x < k; x++) toks[x].used = true;
      out.push({ label: "DATE", start: toks[j].start, end: toks[k - 1].end });
      i = k - 1;
      continue;
    }
    if (t.bits & (W.WEEKDAY | W.DATE) && !NOT_DATES.has(t.lower)) {
      t.used = true;
      out.push({ label: "DATE", start: t.start, end: t.end });
      continue;
    }
    // "3 March 1921": the month takes its day.
    if (isDay(t) && toks[i + 1] && toks[i + 1].joined && isMonth(toks, i + 1)) continue;
    if (t.num) {
      const dated =
        /^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}\/\d{1,2}\/\d{2,4}$|^\d{3}0s$/.test(t.lower) ||
        (isYear(t) && i > 0 && YEAR_BEFORE.has(toks[i - 1].lower));
      let k = i + 1;
      if (!dated) while (toks[k]?.joined && toks[k].bits & (W.MULTIPLE | W.NUMWORD) && !(toks[k].bits & W.ORDINAL)) k++;
      for (let x = i; x < k; x++) toks[x].used = true;
      out.push({ label: dated ? "DATE" : "NUMBER", start: t.start, end: toks[k - 1].end });
      i = k - 1;
      continue;
    }
    if (t.bits & W.NUMWORD && !(t.bits & W.ORDINAL)) {
      let k = i + 1;
      while (toks[k]?.joined && toks[k].bits & (W.MULTIPLE | W.NUMWORD) && !(toks[k].bits & W.ORDINAL)) k++;
      for (let x = i; x < k; x++) toks[x].used = true;
      out.push({ label: "NUMBER", start: t.start, end: toks[k - 1].end });
      i = k - 1;
    }
  }
}

/** A capitalised word that may be part of a name: not a function word, not a common word opening a sentence. */
function nameWord(t: Token): boolean {
  if (!t.cap || t.used || t.num || t.bits & (W.FUNC | W.HONORIFIC)) return false;
  // Capitals only (FDA, DATA SOURCES): a known organisation or place, else an acronym or a heading.
  if (t.shout) return Boolean(t.bits & (W.ORG | W.PLACE));
  if (t.initial && t.bits & (W.COMMON | W.VERB) && !(t.bits & (W.FIRST | W.PLACE | W.ORG | W.PERSON | W.LAST))) return false;
  return true;
}

/** The family of a run of capitalised words, or undefined when nothing says what it names. */
function typeOf(run: Token[], honorific: boolean, lex: Lexicon): "PERSON" | "LOC" | "ORG" | undefined {
  const first = run[0];
  const last = run[run.length - 1];
  const whole = run.length > 1 ? (lex.multi.get(run.map((t) => t.lower).join(" ")) ?? 0) : first.bits;
  if (whole & W.ORG) return "ORG";
  if (run.length > 1 && run.some((t) => t.bits & W.ORG_HEAD)) return "ORG";
  if (run.length > 1 && last.bits & W.PLACE_HEAD) return "LOC";
  if (honorific || (first.bits & W.FIRST && (run.length > 1 || !first.initial))) return "PERSON";
  if (run.length > 1 && last.bits & W.LAST) return "PERSON";
  if (whole & W.PLACE || (run.length > 1 && PLACE_PREFIX.has(first.lower))) return "LOC";
  if (run.length === 1 && first.bits & (W.PERSON | W.LAST) && !first.initial) return "PERSON";
  if (run.length === 1 && first.bits & W.ORG) return "ORG";
  return undefined;
}

function names(toks: Token[], out: Tagged[], lex: Lexicon): void {
  for (let i = 0; i < toks.length; i++) {
    if (!nameWord(toks[i])) continue;
    const honorific = i > 0 && Boolean(toks[i - 1].bits & W.HONORIFIC) && toks[i - 1].cap;
    const run = [toks[i]];
    let k = i + 1;
    for (; k < toks.length; k++) {
      const t = toks[k];
      if (!t.joined && !(t.dotSpace && abbreviation(run[run.length - 1]))) break;
      if (nameWord(t) && !t.initial) {
        run.push(t);
        continue;
      }
      // University of Warsaw, Gulf of Mexico; Ludwig van Beethoven.
      const after = toks[k + 1];
      const connects =
        after?.joined &&
        nameWord(after) &&
        ((t.lower === "of" && run.some((r) => r.bits & (W.ORG_HEAD | W.PLACE_HEAD))) ||
          (NAME_PARTICLES.has(t.lower) && !t.cap && run[0].bits & W.FIRST));
      if (!connects) break;
      run.push(t);
    }
    const label = typeOf(run, honorific, lex);
    if (label) {
      for (const t of run) t.used = true;
      out.push({ label, start: run[0].start, end: run[run.length - 1].end });
    } else
      for (const t of run) {
        // A run naming nothing as a whole may hold a known place or organisation of its own.
        const one = typeOf([t], false, lex);
        if (one && one !== "PERSON") {
          t.used = true;
          out.push({ label: one, start: t.start, end: t.end });
        }
      }
    i = k - 1;
  }
}

/** A verb of the lexicon, or an unknown lower-case word in -ed. */
const isVerb = (t: Token) =>
  !t.used && !t.num && (t.bits & W.VERB || (!t.bits && !t.cap && t.lower.length > 4 && t.lower.endsWith("ed")));

function verbs(toks: Token[], out: Tagged[]): void {
  for (let i = 0; i < toks.length; i++) {
    if (!isVerb(toks[i])) continue;
    let k = i + 1;
    while (toks[k]?.joined && isVerb(toks[k])) k++;
    out.push({ label: "VERB", start: toks[i].start, end: toks[k - 1].end });
    i = k - 1;
  }
}

/** The named entities, dates, numbers and verbs of an English text, in order. */
export function tag(text: string): Tagged[] {
  const lex = lexicon();
  const toks = tokenize(text, lex);
  const out: Tagged[] = [];
  datesAndNumbers(toks, out);
  names(toks, out, lex);
  verbs(toks, out);
  return out.sort((a, b) => a.start - b.start);
}
