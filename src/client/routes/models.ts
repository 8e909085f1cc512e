// Generated from src/api/models.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/models.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/models.js";
import type { Routed } from "../client.js";

export type * from "../../api/models.js";

export const addModel: Routed<typeof api.addModel> = { method: "POST", path: "/api/v1/kbox/models", stream: false };
export const listModels: Routed<typeof api.listModels> = { method: "GET", path: "/api/v1/kbox/models", stream: false };
export const pullModel: Routed<typeof api.pullModel> = { method: "POST", path: "/api/v1/kbox/models/pull", stream: "ndjson" };
export const removeModel: Routed<typeof api.removeModel> = { method: "DELETE", path: "/api/v1/kbox/models", stream: false };
export const useModel: Routed<typeof api.useModel> = { method: "POST", path: "/api/v1/kbox/models/use", stream: false };
