// Generated from src/api/predict.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/predict.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/predict.js";
import type { Routed } from "../client.js";

export type * from "../../api/predict.js";

export const chatCompletions: Routed<typeof api.chatCompletions> = {
  method: "POST",
  path: "/api/v1/predict/chat/completions",
  stream: "sse",
};
export const compatChatCompletions: Routed<typeof api.compatChatCompletions> = {
  method: "POST",
  path: "/api/v1/predict/compat/chat/completions",
  stream: "sse",
};
export const compatEmbeddings: Routed<typeof api.compatEmbeddings> = {
  method: "POST",
  path: "/api/v1/predict/compat/embeddings",
  stream: false,
};
export const compatModel: Routed<typeof api.compatModel> = {
  method: "GET",
  path: "/api/v1/predict/compat/models/:model_id",
  stream: false,
};
export const compatModels: Routed<typeof api.compatModels> = {
  method: "GET",
  path: "/api/v1/predict/compat/models",
  stream: false,
};
export const getModel: Routed<typeof api.getModel> = { method: "GET", path: "/api/v1/predict/models/:model_id", stream: false };
export const listModels: Routed<typeof api.listModels> = { method: "GET", path: "/api/v1/predict/models", stream: false };
export const openaiChatCompletions: Routed<typeof api.openaiChatCompletions> = {
  method: "POST",
  path: "/v1/chat/completions",
  stream: "sse",
};
export const openaiEmbeddings: Routed<typeof api.openaiEmbeddings> = { method: "POST", path: "/v1/embeddings", stream: false };
export const openaiModels: Routed<typeof api.openaiModels> = { method: "GET", path: "/v1/models", stream: false };
export const predictChat: Routed<typeof api.predictChat> = { method: "POST", path: "/api/v1/predict/chat", stream: "ndjson" };
export const predictChatKb: Routed<typeof api.predictChatKb> = {
  method: "POST",
  path: "/api/v1/predict/chat/:kbid",
  stream: "ndjson",
};
export const predictQuery: Routed<typeof api.predictQuery> = { method: "POST", path: "/api/v1/predict/query", stream: false };
export const predictQueryGet: Routed<typeof api.predictQueryGet> = {
  method: "GET",
  path: "/api/v1/predict/query",
  stream: false,
};
export const predictQueryKb: Routed<typeof api.predictQueryKb> = {
  method: "POST",
  path: "/api/v1/predict/query/:kbid",
  stream: false,
};
export const predictSentences: Routed<typeof api.predictSentences> = {
  method: "POST",
  path: "/api/v1/predict/sentences",
  stream: false,
};
export const predictSentencesKb: Routed<typeof api.predictSentencesKb> = {
  method: "POST",
  path: "/api/v1/predict/sentences/:kbid",
  stream: false,
};
