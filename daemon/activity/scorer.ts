import type { QualityScores } from "../../src/api/activity.js";
import type { Reranker } from "../models/types.js";
import { LEXICAL, lexicalScores, sentences } from "./quality.js";

/** Scores an answer against its question and context. */
export interface QualityScorer {
  score(question: string, answer: string, context: string[]): Promise<QualityScores>;
}

/** A cross-encoder's score as a share in [0, 1] (logits go through a sigmoid). */
const share = (x: number) => (x >= 0 && x <= 1 ? x : 1 / (1 + Math.exp(-x)));
const scale = (x: number) => Math.round(share(x) * 500) / 100;

/**
 * The cross-encoder (reranker) the daemon has, when one is pulled, scores question–context and
 * question–answer relevance, and each answer sentence against its best context piece (averaged with
 * the lexical overlap: a cross-encoder judges relevance, not entailment). Without one, the lexical method.
 */
export class Scorer implements QualityScorer {
  constructor(private readonly reranker: () => Promise<Reranker | undefined>) {}

  async score(question: string, answer: string, context: string[]): Promise<QualityScores> {
    const lexical = lexicalScores(question, answer, context);
    const ce = await this.reranker().catch(() => undefined);
    if (!ce || !context.length) return lexical;
    const [rel] = await ce.score(question, [answer]);
    const ctx = await ce.score(question, context);
    const ground: number[] = [];
    for (const [i, s] of sentences(answer).entries()) {
      const best = Math.max(...(await ce.score(s, context)).map(share));
      ground.push(Math.round(((best * 5 + (lexical.groundedness[i] ?? 0)) / 2) * 100) / 100);
    }
    return {
      answer_relevance: {
        score: scale(rel),
        reason: `${lexical.answer_relevance.reason} Cross-encoder ${ce.id}: ${scale(rel)}/5.`,
      },
      context_relevance: ctx.map(scale),
      groundedness: lexical.groundedness.length ? ground : [],
      method: `cross-encoder:${ce.id}`,
    };
  }
}

export { LEXICAL };
