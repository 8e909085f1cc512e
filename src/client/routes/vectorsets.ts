// Generated from src/api/vectorsets.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/vectorsets.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/vectorsets.js";
import type { Routed } from "../client.js";

export type * from "../../api/vectorsets.js";

export const addVectorset: Routed<typeof api.addVectorset> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/vectorsets/:vectorset_id",
  stream: false,
};
export const deleteVectorset: Routed<typeof api.deleteVectorset> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/vectorsets/:vectorset_id",
  stream: false,
};
export const listVectorsets: Routed<typeof api.listVectorsets> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/vectorsets",
  stream: false,
};
