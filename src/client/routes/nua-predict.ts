// Generated from src/api/nua-predict.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/nua-predict.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/nua-predict.js";
import type { Routed } from "../client.js";

export type * from "../../api/nua-predict.js";

export const predictRemi: Routed<typeof api.predictRemi> = { method: "POST", path: "/api/v1/predict/remi", stream: false };
export const predictRemiKb: Routed<typeof api.predictRemiKb> = {
  method: "POST",
  path: "/api/v1/predict/remi/:kbid",
  stream: false,
};
export const predictRephrase: Routed<typeof api.predictRephrase> = {
  method: "POST",
  path: "/api/v1/predict/rephrase",
  stream: false,
};
export const predictRephraseKb: Routed<typeof api.predictRephraseKb> = {
  method: "POST",
  path: "/api/v1/predict/rephrase/:kbid",
  stream: false,
};
export const predictRerank: Routed<typeof api.predictRerank> = { method: "POST", path: "/api/v1/predict/rerank", stream: false };
export const predictRerankKb: Routed<typeof api.predictRerankKb> = {
  method: "POST",
  path: "/api/v1/predict/rerank/:kbid",
  stream: false,
};
export const predictSentence: Routed<typeof api.predictSentence> = {
  method: "GET",
  path: "/api/v1/predict/sentence",
  stream: false,
};
export const predictSentenceKb: Routed<typeof api.predictSentenceKb> = {
  method: "GET",
  path: "/api/v1/predict/sentence/:kbid",
  stream: false,
};
export const predictSummarize: Routed<typeof api.predictSummarize> = {
  method: "POST",
  path: "/api/v1/predict/summarize",
  stream: false,
};
export const predictSummarizeKb: Routed<typeof api.predictSummarizeKb> = {
  method: "POST",
  path: "/api/v1/predict/summarize/:kbid",
  stream: false,
};
export const predictTokens: Routed<typeof api.predictTokens> = { method: "GET", path: "/api/v1/predict/tokens", stream: false };
export const predictTokensKb: Routed<typeof api.predictTokensKb> = {
  method: "GET",
  path: "/api/v1/predict/tokens/:kbid",
  stream: false,
};
