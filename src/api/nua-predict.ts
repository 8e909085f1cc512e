import { z } from "zod";
import { route } from "./route.js";

/** Predict Tokens: the named entities of a text (people, places, organisations, dates, numbers), found locally. */
export const predictTokens = route({
  method: "GET",
  path: "/api/v1/predict/tokens",
  query: z.object({ text: z.string().min(1).max(20_000), model: z.string().optional() }),
  response: z.object({
    tokens: z.array(z.object({ text: z.string(), ner: z.string(), start: z.number().int(), end: z.number().int() })),
    time: z.number(),
    input_tokens: z.number().int(),
  }),
  scope: "authenticated",
  role: "READER",
  summary: "Predict Tokens: named entities of a text with their offsets",
});

const Kb = z.object({ kbid: z.string() });
const ModelQuery = z.object({ model: z.string().optional() });
const anyCaller = { scope: "authenticated", role: "READER" } as const;

export const predictTokensKb = route({
  ...predictTokens,
  path: "/api/v1/predict/tokens/:kbid",
  params: Kb,
  scope: "kb",
  summary: "Predict Tokens with the knowledge box's entities groups",
});

/** Predict Summarize: texts by resource and field, summarized (by the generative model, else extractively). */
export const SummarizeTextsBody = z.object({
  resources: z.record(z.string(), z.object({ fields: z.record(z.string(), z.string().max(2_000_000)) })),
  summary_kind: z.enum(["simple", "extended"]).default("simple"),
  user_prompt: z.string().nullable().optional(),
  generative_model: z.string().nullable().optional(),
});
export const SummarizeTextsResponse = z.object({
  resources: z.record(z.string(), z.object({ summary: z.string(), tokens: z.number().int() })),
  summary: z.string(),
  model: z.string(),
});
export const predictSummarize = route({
  method: "POST",
  path: "/api/v1/predict/summarize",
  query: ModelQuery,
  body: SummarizeTextsBody,
  response: SummarizeTextsResponse,
  ...anyCaller,
  summary: "Predict Summarize: summaries of the given texts (the generative model's, or extractive)",
});
export const predictSummarizeKb = route({
  ...predictSummarize,
  path: "/api/v1/predict/summarize/:kbid",
  params: Kb,
  scope: "kb",
  summary: "Predict Summarize with the knowledge box's generative model",
});

/** Predict Rerank: passages by id scored against a question. */
export const RerankBody = z.object({
  question: z.string().min(1).max(20_000),
  user_id: z.string().optional(),
  context: z.record(z.string(), z.string()),
});
export const predictRerank = route({
  method: "POST",
  path: "/api/v1/predict/rerank",
  body: RerankBody,
  response: z.object({ context_scores: z.record(z.string(), z.number()) }),
  ...anyCaller,
  summary: "Predict Rerank: scores of passages for a question (the installed reranker, else term overlap)",
});
export const predictRerankKb = route({ ...predictRerank, path: "/api/v1/predict/rerank/:kbid", params: Kb, scope: "kb" });

const Turn = z.object({ author: z.enum(["USER", "NUCLIA"]), text: z.string() });
/** Predict Rephrase: a follow-up question as a standalone query. */
export const RephraseBody = z.object({
  question: z.string().min(1).max(20_000),
  chat_history: z.array(Turn).nullable().optional(),
  context: z.array(Turn).nullable().optional(),
  user_context: z.array(z.string()).nullable().optional(),
  user_id: z.string().default("system"),
  generative_model: z.string().nullable().optional(),
  prompt: z.string().nullable().optional(),
  chat_history_relevance_threshold: z.number().min(0).max(1).nullable().optional(),
});
export const predictRephrase = route({
  method: "POST",
  path: "/api/v1/predict/rephrase",
  query: ModelQuery,
  body: RephraseBody,
  response: z.string(),
  ...anyCaller,
  summary: "Predict Rephrase: the question as a standalone query (the generative model, else the history's topic words)",
});
export const predictRephraseKb = route({
  ...predictRephrase,
  path: "/api/v1/predict/rephrase/:kbid",
  params: Kb,
  scope: "kb",
  summary: "Predict Rephrase with the knowledge box's generative model",
});

/** REMi: how relevant an answer is to its question, and each context to the question and to the answer (0..5). */
export const RemiBody = z.object({
  user_id: z.string(),
  question: z.string().max(20_000).nullable().optional(),
  answer: z.string().max(100_000).nullable().optional(),
  contexts: z.array(z.string()).max(200).nullable().optional(),
});
export const RemiResponse = z.object({
  time: z.number(),
  answer_relevance: z.object({ score: z.number().int(), reason: z.string() }),
  context_relevance: z.array(z.number().int()),
  groundedness: z.array(z.number().int()),
});
export const predictRemi = route({
  method: "POST",
  path: "/api/v1/predict/remi",
  body: RemiBody,
  response: RemiResponse,
  ...anyCaller,
  summary: "REMi: answer relevance, context relevance and groundedness scores, 0..5 (computed offline)",
});
export const predictRemiKb = route({ ...predictRemi, path: "/api/v1/predict/remi/:kbid", params: Kb, scope: "kb" });

/** Predict Sentence: one text's vector. */
export const predictSentence = route({
  method: "GET",
  path: "/api/v1/predict/sentence",
  query: z.object({ text: z.string().min(1).max(20_000), model: z.string().optional() }),
  response: z.object({ data: z.array(z.number()), time: z.number(), model: z.string() }),
  ...anyCaller,
  summary: "Predict Sentence: the vector of a text (the named or default embedding model)",
});
export const predictSentenceKb = route({
  method: "GET",
  path: "/api/v1/predict/sentence/:kbid",
  params: Kb,
  query: z.object({ text: z.string().min(1).max(20_000), models: z.union([z.string(), z.array(z.string())]).optional() }),
  response: z.object({
    data: z.array(z.number()),
    time: z.number(),
    vectors: z.record(z.string(), z.array(z.number())),
  }),
  role: "READER",
  summary: "Predict Sentence with the knowledge box's embedding model",
});
