import type { QualityScores } from "../../src/api/activity.js";
import { term, words } from "../text/analyzer.js";

/**
 * Answer-quality scores computed offline: lexical overlap of stemmed content words (stop words
 * dropped) and of their consecutive pairs, on the 0–5 scale the service reports. It measures whether
 * the words are *there*, not whether they mean the same: a paraphrase scores low, a sentence that
 * copies context words in a wrong order or negates them can score high (docs/activity.md).
 */
export const LEXICAL = "lexical";

/** Words that frame a question rather than say what it is about. */
const FRAME = new Set(
  "what where when who whom whose which why how does do did is are was were can could should would will tell me please explain describe give list".split(
    " ",
  ),
);

/** Stemmed content terms of a text, in order (a question's framing words dropped too). */
function termsOf(text: string, question = false): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (question && FRAME.has(w.word.toLowerCase())) continue;
    const t = term(w.word, "en");
    if (t) out.push(t);
  }
  return out;
}

const pairs = (t: string[]) => t.slice(1).map((x, i) => `${t[i]} ${x}`);

/** How much of `part`'s terms (and term pairs) `whole` holds, in [0, 1]; pairs weigh half when there are any. */
function coverage(part: string[], whole: { terms: Set<string>; pairs: Set<string> }): number {
  if (!part.length) return 0;
  const uni = part.filter((t) => whole.terms.has(t)).length / part.length;
  const p = pairs(part);
  if (!p.length) return uni;
  const bi = p.filter((x) => whole.pairs.has(x)).length / p.length;
  return 0.5 * uni + 0.5 * bi;
}

function bag(text: string) {
  const t = termsOf(text);
  return { terms: new Set(t), pairs: new Set(pairs(t)) };
}

const scale = (x: number) => Math.round(x * 500) / 100;

/** The sentences of an answer (lines, then sentence ends); markup-only pieces dropped. */
export function sentences(answer: string): string[] {
  return answer
    .split(/\n+|(?<=[.!?])\s+(?=\S)/)
    .map((s) => s.trim())
    .filter((s) => termsOf(s).length > 0);
}

/** Phrases with which an answerer says it could not answer. */
const NO_ANSWER = /not enough (data|information|context)|cannot answer|can't answer|i don't know|no information/i;

/**
 * The three scores of an answer: answer relevance (the question's terms the answer addresses),
 * context relevance (per context piece: the question's terms it holds), groundedness (per answer
 * sentence: its terms and term pairs found in the whole context).
 */
export function lexicalScores(question: string, answer: string, context: readonly string[]): QualityScores {
  const q = termsOf(question, true);
  const ans = bag(answer);
  const ctx = bag(context.join("\n"));
  const noAnswer = !answer.trim() || NO_ANSWER.test(answer);
  const covered = q.filter((t) => ans.terms.has(t));
  const relevance = noAnswer ? 0 : q.length ? covered.length / q.length : 1;
  const reason = noAnswer
    ? "The answer says it cannot answer the question."
    : `The answer contains ${covered.length} of the question's ${q.length} content words${
        q.length > covered.length
          ? ` (missing: ${q
              .filter((t) => !ans.terms.has(t))
              .slice(0, 5)
              .join(", ")})`
          : ""
      }.`;
  return {
    answer_relevance: { score: scale(relevance), reason },
    context_relevance: context.map((c) => scale(coverage(q, bag(c)))),
    groundedness: noAnswer ? [] : sentences(answer).map((s) => scale(coverage(termsOf(s), ctx))),
    method: LEXICAL,
  };
}
