// Generated from src/api/processing.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/processing.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/processing.js";
import type { Routed } from "../client.js";

export type * from "../../api/processing.js";

export const processingStatus: Routed<typeof api.processingStatus> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/processing-status",
  stream: false,
};
