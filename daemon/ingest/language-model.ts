/**
 * eld's language detector (n-grams of the UTF-8 bytes of the first words of a text, scored against
 * per-language frequencies: the `small` database, 60 languages) with its database packed into typed
 * arrays. eld keeps the database as 81,000 small objects of language -> score, 41 MiB of the daemon's
 * heap that every full collection marks, and scores by enumerating their keys; packed, the same data
 * takes 14 MiB (a map of the n-grams and three typed arrays) and a text is scored with array reads
 * (bench/language.ts: 14 µs a note instead of 42). The results are eld's own, bit for bit
 * (test/daemon/ingest/language-model.test.ts compares them on thousands of texts), including its
 * reliability test.
 *
 * eld exports only the detector; its data, byte dictionary, separators and average scores are read
 * from the package's files next to its `small` entry (eld is pinned to the version this was checked
 * against in package.json). The build packs the arrays into a file next to the compiled module
 * (`language-model.bin`), read in about 80 ms where evaluating eld's data module takes about a second
 * of the daemon's thread at its first ingestion.
 */

import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runInThisContext } from "node:vm";

/** One detection, as eld reports it: the language, eld's reliability verdict, and the two best scores. */
export interface Detection {
  language: string;
  reliable: boolean;
  /** The best score and the runner-up's (0 when none), on eld's 0-1 scale. */
  top: number;
  second: number;
}

/** eld's database: the n-gram scores and each language's average score of a correct detection. */
interface EldData {
  ngramsData: { type: string; languages: Record<string, string>; ngrams: Record<string, Record<string, number>> };
  avgScore: Record<string, number>;
}

/** eld subtracts this from every stored score to keep its database small. */
const BASE_SCORE = 53;
/** Raw scores are divided by the n-gram count and scaled by this (eld's hand-picked value). */
const SCALE = 25;
/** eld reads the first 1,000 characters, and of them words up to about 350 bytes (cut hard at 380). */
const MAX_CHARS = 1000;
const CUT_AFTER = 350;
const ENFORCE_CUT_AFTER = 380;
/** Characters of the text processed first: enough for the byte cut in all but unusual texts. */
const FIRST_CHARS = 500;
const RELIABLE_RATIO = 0.75;

/** What detects: the packed model, or eld itself where the model cannot load. */
export interface Detector {
  detect(text: string): Detection | undefined;
}

/**
 * eld's own detector behind the same interface: what the daemon uses if the packed model cannot read
 * eld's files (a newer eld laid out otherwise), so that language detection never stops ingestion.
 */
export async function eldDetector(): Promise<Detector> {
  const eld = (await import("eld/small")).default as unknown as {
    detect(text: string): { language: string; isReliable(): boolean; getScores(): Record<string, number> };
  };
  return {
    detect(text) {
      const r = eld.detect(text);
      if (!r.language) return undefined;
      const [top = 0, second = 0] = Object.values(r.getScores()).sort((a, b) => b - a);
      return { language: r.language, reliable: r.isReliable(), top, second };
    },
  };
}

/** The model's database as arrays (what the packed file holds). */
interface PackedParts {
  /** Language codes, by language number. */
  codes: string[];
  /** eld's average score of a correct detection, by language number. */
  average: Float64Array;
  /** The n-grams, by row. */
  keys: string[];
  start: Uint32Array;
  langs: Uint8Array;
  scores: Uint8Array;
}

/** Where the build writes the packed database: next to this module, in dist/. */
const PACKED_FILE = new URL("./language-model.bin", import.meta.url);
const MAGIC = "KBLM";
const FORMAT = 1;

const eldEntry = () => import.meta.resolve("eld/small");
const eldModule = (rel: string) => import(new URL(rel, eldEntry()).href);

/** eld's byte dictionary and word separators (small modules, read at every load). */
async function eldTables(): Promise<[string[], RegExp]> {
  const [dictionary, patterns] = await Promise.all([eldModule("../dictionary.js"), eldModule("../regexPatterns.js")]);
  return [dictionary.dictionary, patterns.separators];
}

/** What a packed file must have been packed from: the installed eld's version and data module size. */
async function eldVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(fileURLToPath(new URL("../../package.json", eldEntry())), "utf8")) as { version: string };
  const data = await stat(fileURLToPath(new URL("../ngrams/small.js", eldEntry())));
  return `${pkg.version}/${data.size}`;
}

/**
 * The packed file: "KBLM", a JSON header's length (u32) and the header (format, eld's stamp, codes,
 * averages, counts), then each n-gram's length (u8), the n-grams (UTF-16), and, 4-byte aligned, the
 * rows' starts (u32, this machine's byte order: the file is written where it is read), languages and
 * scores (u8).
 */
function packParts(p: PackedParts, eld: string): Buffer {
  const chars = p.keys.join("");
  const header = Buffer.from(
    JSON.stringify({
      format: FORMAT,
      eld,
      codes: p.codes,
      average: [...p.average],
      keys: p.keys.length,
      pairs: p.langs.length,
      chars: chars.length,
    }),
  );
  const lengths = Uint8Array.from(p.keys, (k) => {
    if (k.length > 255) throw new Error("an n-gram longer than 255 characters");
    return k.length;
  });
  const head = 8 + header.length + lengths.length + chars.length * 2;
  const pad = Buffer.alloc((4 - (head % 4)) % 4);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  const start = Buffer.from(p.start.buffer, p.start.byteOffset, p.start.byteLength);
  return Buffer.concat([Buffer.from(MAGIC), len, header, lengths, Buffer.from(chars, "utf16le"), pad, start, p.langs, p.scores]);
}

/** The parts of a packed file, or undefined when it is not one packed from this eld (the caller falls back). */
function unpackParts(b: Buffer, eld: string): PackedParts | undefined {
  if (b.length < 8 || b.toString("latin1", 0, 4) !== MAGIC) return undefined;
  const hlen = b.readUInt32LE(4);
  if (8 + hlen > b.length) return undefined;
  const h = JSON.parse(b.toString("utf8", 8, 8 + hlen)) as {
    format: number;
    eld: string;
    codes: string[];
    average: number[];
    keys: number;
    pairs: number;
    chars: number;
  };
  if (h.format !== FORMAT || h.eld !== eld) return undefined;
  const keysAt = 8 + hlen;
  const charsAt = keysAt + h.keys;
  const charsEnd = charsAt + h.chars * 2;
  const startAt = charsEnd + ((4 - (charsEnd % 4)) % 4);
  const langsAt = startAt + (h.keys + 1) * 4;
  const scoresAt = langsAt + h.pairs;
  if (scoresAt + h.pairs !== b.length) return undefined;
  const lengths = b.subarray(keysAt, charsAt);
  const chars = b.toString("utf16le", charsAt, charsEnd);
  // Copied out (a Uint32Array needs an aligned offset into its own buffer).
  const start = new Uint32Array(b.buffer.slice(b.byteOffset + startAt, b.byteOffset + langsAt));
  const langs = Uint8Array.from(b.subarray(langsAt, scoresAt));
  const scores = Uint8Array.from(b.subarray(scoresAt));
  const keys = new Array<string>(h.keys);
  for (let i = 0, c = 0; i < h.keys; c += lengths[i++]) keys[i] = chars.substring(c, c + lengths[i]);
  return { codes: h.codes, average: Float64Array.from(h.average), keys, start, langs, scores };
}

export class LanguageModel implements Detector {
  /** The n-grams, by row: the pairs of row i are at [start[i], start[i + 1]). */
  private readonly keys: string[];
  /** n-gram (as gramKey numbers it) -> its row, by open addressing: keys -1 where empty. */
  private readonly slots: Float64Array;
  private readonly slotRows: Int32Array;
  /** n-grams gramKey cannot number (none in eld's `small` database), by their text. */
  private readonly otherRows = new Map<string, number>();
  /** The numbered n-grams of the text being scored (grown as needed). */
  private grams = new Float64Array(512);
  private readonly start: Uint32Array;
  private readonly langs: Uint8Array;
  private readonly scores: Uint8Array;
  private readonly codes: string[];
  /** eld's average score of a correct detection, by language number. */
  private readonly average: Float64Array;
  private readonly sums: Int32Array;
  private readonly dictionary: string[];
  private readonly separators: RegExp;

  private constructor(parts: PackedParts, dictionary: string[], separators: RegExp) {
    this.dictionary = dictionary;
    this.separators = separators;
    this.codes = parts.codes;
    this.average = parts.average;
    this.start = parts.start;
    this.langs = parts.langs;
    this.scores = parts.scores;
    this.sums = new Int32Array(this.codes.length);
    this.keys = parts.keys;
    let size = 1024;
    while (size < parts.keys.length * 2) size *= 2;
    this.slots = new Float64Array(size).fill(-1);
    this.slotRows = new Int32Array(size);
    for (let row = 0; row < parts.keys.length; row++) {
      const k = parts.keys[row];
      const key = gramKey(k, 0, k.length, false, false);
      if (key < 0) {
        this.otherRows.set(k, row);
        continue;
      }
      let i = slotOf(key, size - 1);
      while (this.slots[i] !== -1 && this.slots[i] !== key) i = (i + 1) & (size - 1);
      this.slots[i] = key;
      this.slotRows[i] = row;
    }
  }

  /** The row of a numbered n-gram, -1 when the database has none. */
  private rowOf(key: number): number {
    const mask = this.slots.length - 1;
    for (let i = slotOf(key, mask); ; i = (i + 1) & mask) {
      const k = this.slots[i];
      if (k === key) return this.slotRows[i];
      if (k === -1) return -1;
    }
  }

  /** eld's database as arrays: its n-grams in eld's order, and each one's language and score pairs. */
  private static pack(data: EldData): PackedParts {
    const { ngrams, languages } = data.ngramsData;
    const codes = Object.keys(languages).map((k) => languages[k]);
    const average = Float64Array.from(codes, (c) => data.avgScore[c] ?? 0);
    const keys = Object.keys(ngrams);
    let pairs = 0;
    for (const k of keys) for (const _ in ngrams[k]) pairs++;
    const start = new Uint32Array(keys.length + 1);
    const langs = new Uint8Array(pairs);
    const scores = new Uint8Array(pairs);
    let at = 0;
    keys.forEach((k, row) => {
      start[row] = at;
      const entry = ngrams[k];
      // Enumerated as eld does (integer keys ascending): sums are integers, so the order only keeps the data alike.
      for (const lang in entry) {
        langs[at] = Number(lang);
        scores[at++] = entry[lang];
      }
    });
    start[keys.length] = at;
    return { codes, average, keys, start, langs, scores };
  }

  /**
   * Load eld's `small` database: from the packed file the build writes next to this module
   * (`npm run build`: scripts/pack-language-model.mjs) when it was packed from the installed eld,
   * else from eld's own data module (tests under tsx, or an eld updated since the build).
   */
  static async load(packed: string | URL = PACKED_FILE): Promise<LanguageModel> {
    const [dictionary, separators] = await eldTables();
    const bytes = await readFile(packed).catch(() => undefined);
    const parts = bytes && unpackParts(bytes, await eldVersion());
    return parts ? new LanguageModel(parts, dictionary, separators) : LanguageModel.fromEld();
  }

  /**
   * Build the model from eld's data module. It is evaluated here rather than imported: an imported
   * module stays in the module map for good, and with it the 41 MiB object. About a second of CPU
   * (the module is a 1.6 MB object literal), hence the packed file.
   */
  static async fromEld(): Promise<LanguageModel> {
    const source = await readFile(fileURLToPath(new URL("../ngrams/small.js", eldEntry())), "utf8");
    const literal = /export\s+const\s+ngramsData\s*=\s*([\s\S]*?);?\s*$/.exec(source)?.[1];
    if (!literal) throw new Error("eld's ngrams database is not where this version keeps it");
    const [[dictionary, separators], avg] = await Promise.all([eldTables(), eldModule("../avgScore.js")]);
    const data: EldData = {
      ngramsData: runInThisContext(`(${literal})`, { filename: "eld-ngrams-small.js" }),
      avgScore: avg.avgScore,
    };
    return new LanguageModel(LanguageModel.pack(data), dictionary, separators);
  }

  /** The model's database as the packed file holds it, stamped with the installed eld's version. */
  async toBytes(): Promise<Buffer> {
    return packParts(
      { codes: this.codes, average: this.average, keys: this.keys, start: this.start, langs: this.langs, scores: this.scores },
      await eldVersion(),
    );
  }

  /** The language of a text as eld's `detect` would give it; undefined when no n-gram scores. */
  detect(text: string): Detection | undefined {
    const head = text.length > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
    // Words of the first characters only when the byte cut falls within them (else of all of them).
    const part = head.length > FIRST_CHARS ? partEnd(head) : 0;
    const words = (part && this.words(head.substring(0, part), true)) || (this.words(head, false) as string[]);
    return this.score(words);
  }

  /**
   * eld's text processing: separators to spaces, trimmed, lower-cased, each character to its UTF-8
   * bytes (as characters of eld's dictionary), cut into words up to the byte limit. With `partial` (a
   * head of the text ending in an ASCII letter: see partEnd), undefined unless the cut came within it.
   */
  private words(text: string, partial: boolean): string[] | undefined {
    const s = text.replace(this.separators, " ").trim().toLowerCase();
    const dict = this.dictionary;
    const words: string[] = [];
    // A word is its ASCII runs (sliced whole) and its other characters' bytes, joined.
    let encoded = "";
    let run = 0;
    let bytes = 0;
    let i = 0;
    let cut = false;
    for (; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c === 32) {
          const word = run < i ? encoded + s.slice(run, i) : encoded;
          if (word !== "") words.push(word);
          encoded = "";
          run = i + 1;
          if (bytes > CUT_AFTER) {
            cut = true;
            break;
          }
        }
        bytes++;
      } else {
        if (run < i) encoded += s.slice(run, i);
        if (c < 0x800) {
          encoded += dict[0xc0 | (c >> 6)] + dict[0x80 | (c & 0x3f)];
          bytes += 2;
        } else if (c < 0xd800 || c >= 0xe000) {
          encoded += dict[0xe0 | (c >> 12)] + dict[0x80 | ((c >> 6) & 0x3f)] + dict[0x80 | (c & 0x3f)];
          bytes += 3;
        } else {
          i++;
          c = 0x10000 + (((c & 0x3ff) << 10) | (s.charCodeAt(i) & 0x3ff));
          encoded +=
            dict[0xf0 | (c >> 18)] + dict[0x80 | ((c >> 12) & 0x3f)] + dict[0x80 | ((c >> 6) & 0x3f)] + dict[0x80 | (c & 0x3f)];
          bytes += 4;
        }
        run = i + 1;
      }
      if (bytes > ENFORCE_CUT_AFTER) {
        cut = true;
        i++;
        break;
      }
    }
    if (partial && !cut) return undefined;
    // The characters read up to the cut (or the end), of the last word.
    const last = run < Math.min(i, s.length) ? encoded + s.slice(run, Math.min(i, s.length)) : encoded;
    if (last !== "") words.push(last);
    return words;
  }

  /** Add a row's scores (none for -1) to the sums by language. */
  private addScores(row: number, sums: Int32Array): void {
    if (row < 0) return;
    for (let k = this.start[row], end = this.start[row + 1]; k < end; k++) sums[this.langs[k]] += this.scores[k] + BASE_SCORE;
  }

  private score(words: string[]): Detection | undefined {
    // Each word's 4-byte n-grams, 3 bytes apart; the first starts with a space, the last ends with one
    // (eld's: the last runs to the word's end, past its first 70 characters). Numbered (gramKey), not
    // built as strings: a text's n-grams are sorted to count each once, then looked up.
    let grams = this.grams;
    let count = 0;
    let others: Set<string> | undefined;
    const add = (w: string, from: number, to: number, space: boolean, last: boolean) => {
      const key = gramKey(w, from, to, space, last);
      if (key < 0) {
        others ??= new Set();
        others.add(`${space ? " " : ""}${w.substring(from, to)}${last ? " " : ""}`);
        return;
      }
      if (count === grams.length) {
        const more = new Float64Array(grams.length * 2);
        more.set(grams);
        this.grams = grams = more;
      }
      grams[count++] = key;
    };
    for (const word of words) {
      const len = Math.min(word.length, 70);
      let j = 0;
      for (; j + 4 < len; j += 3) add(word, j, j + 4, j === 0, false);
      add(word, len !== 3 ? Math.max(0, len - 4) : 0, word.length, j === 0, true);
    }
    const sorted = grams.subarray(0, count).sort();
    const sums = this.sums;
    sums.fill(0);
    let n = others?.size ?? 0;
    for (let g = 0; g < count; g++) {
      if (g > 0 && sorted[g] === sorted[g - 1]) continue;
      n++;
      this.addScores(this.rowOf(sorted[g]), sums);
    }
    for (const gram of others ?? []) this.addScores(this.otherRows.get(gram) ?? -1, sums);
    let best = -1;
    for (let l = 0; l < sums.length; l++) if (sums[l] > 0 && (best < 0 || sums[l] > sums[best])) best = l;
    if (best < 0) return undefined;
    const scaled = (l: number) => sums[l] / n / (sums[l] / n + SCALE);
    // The runner-up in eld's order: the next score down, ties to the lower language number.
    let second = -1;
    for (let l = 0; l < sums.length; l++) if (l !== best && sums[l] > 0 && (second < 0 || sums[l] > sums[second])) second = l;
    const top = scaled(best);
    // eld compares the best score with the runner-up's language number, not its score: kept as eld has it.
    const reliable = n >= 3 && !(this.average[best] * RELIABLE_RATIO > top || 0.01 > Math.abs(top - Math.max(second, 0)));
    return { language: this.codes[best], reliable, top, second: second < 0 ? 0 : scaled(second) };
  }
}

/**
 * An n-gram as a number: its characters (codes up to 255: ASCII and eld's byte dictionary) base 256,
 * after a space when `space`, then a space when `last`, times 8 plus its length (6 characters at
 * most: under 2^51, exact in a double). -1 for one longer or with another character.
 */
function gramKey(w: string, from: number, to: number, space: boolean, last: boolean): number {
  const length = to - from + (space ? 1 : 0) + (last ? 1 : 0);
  if (length > 6) return -1;
  let k = space ? 32 : 0;
  for (let i = from; i < to; i++) {
    const c = w.charCodeAt(i);
    if (c > 255) return -1;
    k = k * 256 + c;
  }
  if (last) k = k * 256 + 32;
  return k * 8 + length;
}

/** The first slot of a numbered n-gram in a table of `mask + 1` slots. */
function slotOf(key: number, mask: number): number {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h & mask;
}

/**
 * Where to cut the text's head so that processing it gives the whole text's processed characters up
 * to the cut: right after an ASCII letter (a letter to eld, lower-cased alone), so that no separator
 * run, trimmed end or context-dependent lower-casing spans the cut. 0 when there is none near
 * FIRST_CHARS (text in other scripts is processed whole).
 */
function partEnd(text: string): number {
  for (let i = FIRST_CHARS - 1; i >= FIRST_CHARS - 200; i--) {
    const c = text.charCodeAt(i) | 0x20;
    if (c >= 97 && c <= 122) return i + 1;
  }
  return 0;
}
