// Generated from src/api/retrieval.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/retrieval.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/retrieval.js";
import type { Routed } from "../client.js";

export type * from "../../api/retrieval.js";

export const augment: Routed<typeof api.augment> = { method: "POST", path: "/api/v1/kb/:kbid/augment", stream: false };
export const retrieve: Routed<typeof api.retrieve> = { method: "POST", path: "/api/v1/kb/:kbid/retrieve", stream: false };
