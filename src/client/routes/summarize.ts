// Generated from src/api/summarize.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/summarize.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/summarize.js";
import type { Routed } from "../client.js";

export type * from "../../api/summarize.js";

export const summarize: Routed<typeof api.summarize> = { method: "POST", path: "/api/v1/kb/:kbid/summarize", stream: false };
