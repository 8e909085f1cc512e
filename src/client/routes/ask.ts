// Generated from src/api/ask.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/ask.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/ask.js";
import type { Routed } from "../client.js";

export type * from "../../api/ask.js";

export const ASK_HEADERS: typeof api.ASK_HEADERS = {
  synchronous: "x-synchronous",
  showConsumption: "x-show-consumption",
  learningId: "NUCLIA-LEARNING-ID",
};
export const STATUS_CODES: typeof api.STATUS_CODES = { success: "0", error: "-1", no_context: "-2", no_retrieval_data: "-3" };
export const askKb: Routed<typeof api.askKb> = { method: "POST", path: "/api/v1/kb/:kbid/ask", stream: "ndjson" };
export const askResource: Routed<typeof api.askResource> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/resource/:rid/ask",
  stream: "ndjson",
};
export const askSlug: Routed<typeof api.askSlug> = { method: "POST", path: "/api/v1/kb/:kbid/slug/:slug/ask", stream: "ndjson" };
