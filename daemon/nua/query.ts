import { extractEntities } from "../entities/index.js";
import { detectLanguage, loadLanguageDetector } from "../ingest/language.js";
import { term, words } from "../text/analyzer.js";

/** Languages whose stop words the analyzer knows: short queries are told apart by them. */
const STOP_LANGS = [
  "en",
  "es",
  "fr",
  "de",
  "it",
  "pt",
  "nl",
  "ca",
  "sv",
  "da",
  "no",
  "fi",
  "ro",
  "hu",
  "tr",
  "ru",
  "uk",
  "el",
  "id",
];

/**
 * The language of a query: the n-gram detector when it is sure (longer text), else the language whose
 * stop words the query uses most (short queries), else null.
 */
export async function queryLanguage(text: string): Promise<string | null> {
  await loadLanguageDetector();
  const detected = detectLanguage(text).language;
  if (detected) return detected;
  const ws = words(text).map((w) => w.word.toLowerCase());
  let best: string | null = null;
  let bestCount = 0;
  for (const lang of STOP_LANGS) {
    const n = ws.filter((w) => term(w, lang) === "").length;
    if (n > bestCount) {
      best = lang;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Predict Query's analysis of a text: on top of the base record (vector, thresholds), its language,
 * its stop words in that language, the named entities found in it (people, places, organisations,
 * dates, numbers: `{text, ner, start, end}`), and the rephrased query when one was made.
 */
export async function analyseQuery(
  base: Record<string, unknown>,
  text: string,
  rephrased?: string,
): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const language = await queryLanguage(text);
  const lang = language ?? "en";
  const stop_words = words(text)
    .map((w) => w.word)
    .filter((w) => term(w.toLowerCase(), lang) === "");
  const tokens = extractEntities(text, [], { language: lang }).flatMap((e) =>
    e.positions.map((p) => ({ text: e.text, ner: e.label, start: p.start, end: p.end })),
  );
  tokens.sort((a, b) => a.start - b.start);
  return {
    ...base,
    language,
    stop_words,
    entities: { tokens, time: (performance.now() - t0) / 1000, input_tokens: Math.ceil(text.length / 4) },
    ...(rephrased !== undefined ? { rephrased_query: rephrased } : {}),
  };
}
