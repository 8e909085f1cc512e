// Generated from src/api/kb-predict.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/kb-predict.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/kb-predict.js";
import type { Routed } from "../client.js";

export type * from "../../api/kb-predict.js";

export const PREDICT_ENDPOINTS: typeof api.PREDICT_ENDPOINTS = ["tokens", "chat", "summarize", "rerank"];
export const PREDICT_UNSERVED: typeof api.PREDICT_UNSERVED = ["rephrase", "remi", "run-agents-text"];
export const downloadModelFile: Routed<typeof api.downloadModelFile> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/models/:model_id/:filename",
  stream: false,
};
export const predictProxyChat: Routed<typeof api.predictProxyChat> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/predict/chat",
  stream: "ndjson",
};
export const predictProxyGet: Routed<typeof api.predictProxyGet> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/predict/:endpoint",
  stream: false,
};
export const predictProxyPost: Routed<typeof api.predictProxyPost> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/predict/:endpoint",
  stream: false,
};
