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

/** The named entities of a text as Predict's tokens `{text, ner, start, end}`, in text order. */
export function entityTokens(text: string, language?: string): { text: string; ner: string; start: number; end: number }[] {
  const tokens = extractEntities(text, [], { language }).flatMap((e) =>
    e.positions.map((p) => ({ text: e.text, ner: e.label, start: p.start, end: p.end })),
  );
  return tokens.sort((a, b) => a.start - b.start);
}

/** Predict Tokens: the entities of a text, in the language detected for it. */
export async function predictTokens(text: string) {
  const t0 = performance.now();
  const tokens = entityTokens(text, (await queryLanguage(text)) ?? undefined);
  return { tokens, time: (performance.now() - t0) / 1000, input_tokens: Math.ceil(text.length / 4) };
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
  const tokens = entityTokens(text, lang);
  return {
    ...base,
    language,
    stop_words,
    entities: { tokens, time: (performance.now() - t0) / 1000, input_tokens: Math.ceil(text.length / 4) },
    ...(rephrased !== undefined ? { rephrased_query: rephrased } : {}),
  };
}
