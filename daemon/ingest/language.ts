import { type Detection, type Detector, eldDetector, LanguageModel } from "./language-model.js";

/** Result of language detection: the main language and every language seen, as ISO 639-1 codes. */
export interface DetectedLanguage {
  language?: string;
  languages: string[];
}

let model: Detector | null = null;
let loading: Promise<void> | null = null;
let deferred = false;

/**
 * Leave detection to another process: extraction workers call this, so that none of them holds the
 * detector; the daemon detects once the text comes back (see finishField).
 */
export function deferLanguageDetection(): void {
  deferred = true;
}

/**
 * Loads the offline n-gram detector (eld's database, packed: language-model.ts; well under a second,
 * once). Loaded on first use rather than at import so that starting the daemon stays fast;
 * extractors await it before calling `detectLanguage`.
 */
export function loadLanguageDetector(): Promise<void> {
  if (deferred) return Promise.resolve();
  loading ??= LanguageModel.load()
    .catch(eldDetector)
    .then((m) => {
      model = m;
    });
  return loading;
}

/** True once the detector is loaded here (never in a worker that defers detection). */
export const detectorReady = (): boolean => model !== null;

// Enough text to be reliable, little enough to stay cheap on big documents.
const SAMPLE_CHARS = 1000;
const SAMPLES = 4;
const MIN_CHARS = 12;

/**
 * Detects the language(s) of a text offline. Short or empty text yields no language rather than a
 * guess. Call `loadLanguageDetector()` once before; until it has loaded this returns no language.
 */
export function detectLanguage(text: string): DetectedLanguage {
  if (!model) {
    void loadLanguageDetector();
    return { languages: [] };
  }
  const counts = new Map<string, number>();
  for (const sample of samples(text)) {
    const r = model.detect(sample);
    if (!r?.reliable || !confident(sample, r)) continue;
    counts.set(r.language, (counts.get(r.language) ?? 0) + sample.length);
  }
  const languages = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l]) => l);
  return languages.length ? { language: languages[0], languages } : { languages: [] };
}

// eld calls short snippets "reliable" too eagerly ("Name | Qty apple" is German to it): below
// LONG_TEXT letters, ask for a clear score and a clear lead over the runner-up.
const LONG_TEXT = 200;
const MIN_SCORE = 0.7;
const MIN_LEAD = 0.08;

function confident(sample: string, { top, second }: Detection): boolean {
  if (sample.length >= LONG_TEXT && letters(sample, LONG_TEXT) >= LONG_TEXT) return true;
  return top >= MIN_SCORE && top - second >= MIN_LEAD;
}

/** Evenly spaced slices of the text, cut at spaces, so a long document is judged by several parts. */
function samples(text: string): string[] {
  const t = text.trim();
  if (letters(t) < MIN_CHARS) return [];
  if (t.length <= SAMPLE_CHARS * 1.5) return [t];
  const n = Math.min(SAMPLES, Math.ceil(t.length / SAMPLE_CHARS));
  const step = Math.floor((t.length - SAMPLE_CHARS) / Math.max(1, n - 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = i * step;
    const sp = t.indexOf(" ", s);
    if (sp !== -1 && sp - s < 50) s = sp + 1;
    const chunk = t.slice(s, s + SAMPLE_CHARS);
    if (letters(chunk) >= MIN_CHARS) out.push(chunk);
  }
  return out;
}

/** Letters in `s`, counted up to `enough` (ASCII by its code, the rest by the Unicode letter class). */
function letters(s: string, enough = MIN_CHARS): number {
  let n = 0;
  for (let i = 0; i < s.length && n < enough; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) n++;
    else if (c >= 128 && LETTER.test(s[i])) n++;
  }
  return n;
}
const LETTER = /\p{L}/u;
