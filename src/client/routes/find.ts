// Generated from src/api/find.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/find.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/find.js";
import type { Routed } from "../client.js";

export type * from "../../api/find.js";

export const FEATURES: typeof api.FEATURES = ["keyword", "semantic", "relations", "fulltext", "paragraphs", "vectors"];
export const find: Routed<typeof api.find> = { method: "POST", path: "/api/v1/kb/:kbid/find", stream: false };
export const findGet: Routed<typeof api.findGet> = { method: "GET", path: "/api/v1/kb/:kbid/find", stream: false };
