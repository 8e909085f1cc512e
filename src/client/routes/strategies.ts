// Generated from src/api/strategies.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/strategies.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/strategies.js";
import type { Routed } from "../client.js";

export type * from "../../api/strategies.js";

export const CUSTOM_SPLIT: typeof api.CUSTOM_SPLIT = { NONE: 0, MANUAL: 1, LLM: 2 };
export const MAX_PARAGRAPH_LIMIT: typeof api.MAX_PARAGRAPH_LIMIT = 1000000;
export const addExtractStrategy: Routed<typeof api.addExtractStrategy> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/extract_strategies",
  stream: false,
};
export const addSplitStrategy: Routed<typeof api.addSplitStrategy> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/split_strategies",
  stream: false,
};
export const deleteExtractStrategy: Routed<typeof api.deleteExtractStrategy> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/extract_strategies/strategy/:strategy_id",
  stream: false,
};
export const deleteSplitStrategy: Routed<typeof api.deleteSplitStrategy> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/split_strategies/strategy/:strategy_id",
  stream: false,
};
export const getExtractStrategy: Routed<typeof api.getExtractStrategy> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/extract_strategies/strategy/:strategy_id",
  stream: false,
};
export const getSplitStrategy: Routed<typeof api.getSplitStrategy> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/split_strategies/strategy/:strategy_id",
  stream: false,
};
export const listExtractStrategies: Routed<typeof api.listExtractStrategies> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/extract_strategies",
  stream: false,
};
export const listSplitStrategies: Routed<typeof api.listSplitStrategies> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/split_strategies",
  stream: false,
};
