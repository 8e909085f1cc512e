// Generated from src/api/feedback.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/feedback.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/feedback.js";
import type { Routed } from "../client.js";

export type * from "../../api/feedback.js";

export const listFeedback: Routed<typeof api.listFeedback> = { method: "GET", path: "/api/v1/kb/:kbid/feedback", stream: false };
export const sendFeedback: Routed<typeof api.sendFeedback> = { method: "POST", path: "/api/v1/kb/:kbid/feedback", stream: false };
