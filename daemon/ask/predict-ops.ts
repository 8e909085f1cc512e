/**
 * The understanding API's remaining predict operations, on kbox's own models: summarize and rephrase
 * with the generative model (offline methods when it is the extractive one), rerank with the installed
 * cross-encoder (term overlap without one), REMi scored offline, and single-sentence vectors.
 */
import type { z } from "zod";
import type { RemiBody, RephraseBody, RerankBody, SummarizeTextsBody } from "../../src/api/nua-predict.js";
import { KboxError } from "../errors.js";
import { terms } from "../models/generate/text.js";
import type { Reranker } from "../models/types.js";
import type { PredictService } from "./predict.js";
import { contextScores } from "./predict-extras.js";
import { historyRelevance, modelRephrase, rephraseQuery } from "./rephrase.js";
import { extractiveSummary, generated } from "./summarize.js";

const SENTENCES = { simple: 2, extended: 5 } as const;
const words = (s: string) => (s.match(/\S+/g) ?? []).length;
interface Caller {
  kbid?: string;
  model?: string;
  untrusted: boolean;
  signal?: AbortSignal;
}

/** Summaries of each resource's fields and of all of them: by the generative model, extractive with the extractive one. */
export async function summarizeTexts(p: PredictService, body: z.output<typeof SummarizeTextsBody>, c: Caller) {
  const g = p.generator(body.generative_model ?? c.model, c.kbid, c.untrusted, ["body", "generative_model"]);
  const one = (text: string) =>
    g.kind === "extractive"
      ? Promise.resolve(extractiveSummary(text, SENTENCES[body.summary_kind]))
      : generated(g, text, body, c.signal);
  const resources: Record<string, { summary: string; tokens: number }> = {};
  for (const [id, r] of Object.entries(body.resources)) {
    const text = Object.values(r.fields).join("\n\n");
    resources[id] = { summary: await one(text), tokens: words(text) };
  }
  const all = Object.values(resources).map((r) => r.summary);
  const summary = all.length <= 1 ? (all[0] ?? "") : await one(all.join("\n\n"));
  return { resources, summary, model: g.id };
}

/** Rerank scores: the installed cross-encoder's, else the share of the question's content terms each passage holds. */
export async function rerankTexts(reranker: Reranker | undefined, body: z.output<typeof RerankBody>, signal?: AbortSignal) {
  const entries = Object.entries(body.context);
  if (!reranker) return { context_scores: contextScores(body.question, entries) };
  const scores = entries.length
    ? await reranker.score(
        body.question,
        entries.map((e) => e[1]),
        signal,
      )
    : [];
  return { context_scores: Object.fromEntries(entries.map(([id], i) => [id, scores[i]])) };
}

/**
 * A standalone query: a generative model rewrites the question with the history (and `prompt`); the
 * extractive one adds the topic words of the user's earlier turns the question leans on. Below
 * `chat_history_relevance_threshold` (how much the question leans on the history, 0..1) it stays as is.
 */
export async function rephraseText(p: PredictService, body: z.output<typeof RephraseBody>, c: Caller): Promise<string> {
  const history = body.chat_history ?? body.context ?? [];
  const g = p.generator(body.generative_model ?? c.model, c.kbid, c.untrusted, ["body", "generative_model"]);
  const t = body.chat_history_relevance_threshold;
  if (t != null && (t >= 1 || historyRelevance(body.question, history) < t)) return body.question;
  if (g.kind !== "extractive") {
    try {
      return await modelRephrase(g, body.prompt ?? undefined, body.question, history, c.signal);
    } catch (e) {
      if (e instanceof KboxError) throw e;
      throw new KboxError(502, `the generative model ${g.id} failed: ${(e as Error).message}`);
    }
  }
  return history.length ? rephraseQuery(body.question, history) : body.question;
}

/** The share (0..1) of a's content terms that b holds. */
function share(a: string, b: string): number {
  const want = [...new Set(terms(a))];
  if (!want.length) return 0;
  const have = new Set(terms(b));
  return want.filter((t) => have.has(t)).length / want.length;
}
const five = (x: number) => Math.round(x * 5);

/**
 * REMi, offline: answer relevance is the share of the question's content terms the answer takes up;
 * context relevance the share the context holds; groundedness the share of the answer's terms the
 * context holds. Each 0..5.
 */
export function remiScores(body: z.output<typeof RemiBody>) {
  const t0 = performance.now();
  const q = body.question ?? "";
  const a = body.answer ?? "";
  const contexts = body.contexts ?? [];
  const rel = five(share(q, a));
  const reason = !a
    ? "There is no answer to score."
    : !terms(q).length
      ? "The question has no content words to compare the answer with."
      : `The answer takes up ${Math.round(share(q, a) * 100)}% of the question's content words (offline term overlap).`;
  return {
    time: (performance.now() - t0) / 1000,
    answer_relevance: { score: a ? rel : 0, reason },
    context_relevance: contexts.map((x) => five(share(q, x))),
    groundedness: contexts.map((x) => five(share(a, x))),
  };
}

/** One text's vector with the named (or default) embedder, or the box's. */
export async function sentenceVector(p: PredictService, text: string, model?: string, kbid?: string) {
  const t0 = performance.now();
  const r = await p.sentences(text, model, kbid);
  const data = Array.from(r.vectors[0]);
  return { data, time: (performance.now() - t0) / 1000, model: r.model };
}
