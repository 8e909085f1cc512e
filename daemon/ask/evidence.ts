/**
 * Whether the retrieved passages answer a question: a calibrated evidence score in [0, 1] that ask
 * compares with its thresholds (AskSettings) before it lets a generator answer. Retrieval always
 * returns *something*; a question the documents do not cover shares few of its informative words
 * with the best sentence it retrieved, and its names (France, xz, PQ-3) are missing from all of them.
 */
import {
  FRAME_WORDS,
  hasNumber,
  isFurniture,
  OPTION_LINE,
  questionNames,
  type Sentence,
  splitSentences,
  stem,
  terms,
} from "../models/generate/text.js";

/** One retrieved passage (its resource's title, when known, counts as context of every sentence). */
export interface EvidencePiece {
  text: string;
  title?: string;
}

export interface Evidence {
  /** Weighted share of the question's content terms the best sentence (with its surroundings) covers. */
  score: number;
  /** The question's content terms no passage contains at all. */
  missing: string[];
}

/** Words asking for a quantity or a moment: a sentence with a number answers them without repeating them. */
const NUMERIC = new Set(
  [
    "time",
    "date",
    "year",
    "day",
    "hour",
    "number",
    "amount",
    "size",
    "percent",
    "percentage",
    "age",
    "count",
    "price",
    "cost",
    "level",
    "limit",
    "version",
    "port",
  ].map(stem),
);

/** Weight of a covered term by where it is: the sentence itself, a neighbour or its heading, the passage. */
const IN_SENTENCE = 1;
const NEARBY = 0.7;
const IN_PASSAGE = 0.4;

/** The question's informative terms with their weights (names count double). */
export function questionTerms(question: string): Map<string, number> {
  const named = questionNames(question);
  const out = new Map<string, number>();
  for (const t of terms(question)) if (!FRAME_WORDS.has(t)) out.set(t, named.has(t) ? 2 : 1);
  return out;
}

/** The evidence that the passages answer the question (1 when the question has no informative term). */
export function evidence(question: string, pieces: EvidencePiece[]): Evidence {
  const q = questionTerms(question);
  const total = [...q.values()].reduce((a, b) => a + b, 0);
  if (!total) return { score: 1, missing: [] };
  const plain = [...q.values()].some((w) => w === 1);
  const everywhere = new Set<string>();
  let best = 0;
  for (const p of pieces) {
    const sentences = splitSentences(p.text);
    const sets = sentences.map((s) => new Set(terms(s.text)));
    const titled = new Set(terms(p.title ?? ""));
    const passage = new Set([...sets.flatMap((s) => [...s]), ...titled]);
    for (const t of passage) everywhere.add(t);
    let heading = new Set<string>();
    sentences.forEach((s, i) => {
      if (s.heading) {
        heading = sets[i];
        return;
      }
      if (isFurniture(s.text)) return;
      const near = new Set([...(sets[i - 1] ?? []), ...(sets[i + 1] ?? []), ...heading]);
      const option = optionBonus(question, s);
      let got = 0;
      let nameMissed = false;
      let own = false;
      const digit = hasNumber(s.text);
      for (const [t, w] of q) {
        if (sets[i].has(t) || (digit && NUMERIC.has(t))) {
          got += w * IN_SENTENCE;
          if (w === 1) own = true;
        } else if (near.has(t) || titled.has(t)) got += w * NEARBY;
        else {
          if (w > 1) nameMissed = true;
          if (passage.has(t)) got += w * IN_PASSAGE;
        }
      }
      // A name the question asks about that is not where the sentence is: it is about something else.
      // A sentence that only mentions the names (--zstd for "the default level of zstd") does not answer.
      const score = Math.min(1, got / total + option) * (own || !plain ? 1 : 0.6);
      best = Math.max(best, nameMissed ? score * 0.5 : score);
    });
  }
  const missing = [...q.keys()].filter((t) => !everywhere.has(t));
  return { score: best, missing };
}

/** "Which option…" is answered by an option line even when it shares fewer words. */
function optionBonus(question: string, s: Sentence): number {
  return /\b(option|flag|switch)\b/i.test(question) && OPTION_LINE.test(s.text) ? 0.1 : 0;
}

/** Whether a generated answer is the model's own "the context does not say". */
export function saysNotInContext(answer: string): boolean {
  const head = answer
    .slice(0, 200)
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^a-z' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return /^(?:not enough data|i (?:do not|don't|cannot|can't) (?:know|answer|find)|(?:the )?(?:provided )?(?:context|documents?|information|text)s? (?:does|do) not (?:contain|mention|say|provide|include)|there is no (?:information|mention)|no information)/.test(
    head,
  );
}
