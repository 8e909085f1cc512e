import { z } from "zod";
import { predictChatKb } from "./predict.js";
import { route } from "./route.js";

// The knowledge-box-scoped understanding API proxy and model file download the upstream clients call
// (`/kb/{kbid}/predict/{endpoint}`, `/kb/{kbid}/models/{model_id}/{filename}`), served by kbox's models.

const Params = z.object({ kbid: z.string(), endpoint: z.string().min(1) });

/** Endpoints kbox serves behind the proxy, and those it answers 4xx for (see docs/entities.md). */
export const PREDICT_ENDPOINTS = ["tokens", "chat", "summarize", "rerank"] as const;
export const PREDICT_UNSERVED = ["rephrase", "remi", "run-agents-text"] as const;

/** Predict tokens: the named entities of a text. */
export const PredictTokensResponse = z.object({
  tokens: z.array(z.object({ text: z.string(), ner: z.string(), start: z.number().int(), end: z.number().int() })),
  time: z.number(),
  input_tokens: z.number().int(),
});
/** Predict summarize body: the texts of the fields of some resources. */
export const PredictSummarizeBody = z.object({
  resources: z.record(z.string(), z.object({ fields: z.record(z.string(), z.string()) })),
  summary_kind: z.enum(["simple", "extended"]).default("simple"),
  user_prompt: z.string().nullable().optional(),
  generative_model: z.string().nullable().optional(),
});
/** Predict rerank body: passages by id, scored against the question. */
export const PredictRerankBody = z.object({
  question: z.string().min(1),
  user_id: z.string().optional(),
  context: z.record(z.string(), z.string()),
});

export const predictProxyChat = route({
  ...predictChatKb,
  path: "/api/v1/kb/:kbid/predict/chat",
  summary: "Predict proxy: chat with the knowledge box's model (as /predict/chat/{kbid})",
});
export const predictProxyGet = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/predict/:endpoint",
  params: Params,
  query: z.looseObject({ text: z.string().optional(), model: z.string().optional() }),
  response: z.unknown(),
  role: "READER",
  summary: "Predict proxy (GET): tokens (named entities of ?text=) with the box's entities groups",
});
export const predictProxyPost = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/predict/:endpoint",
  params: Params,
  body: z.unknown(),
  response: z.unknown(),
  role: "READER",
  summary: "Predict proxy (POST): summarize (extractive) and rerank (the installed reranker) over given texts",
});

export const downloadModelFile = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/models/:model_id/:filename",
  params: z.object({ kbid: z.string(), model_id: z.string().min(1), filename: z.string().min(1) }),
  role: "READER",
  summary: "Download a file of one of the knowledge box's models (an installed ONNX model's file)",
});
