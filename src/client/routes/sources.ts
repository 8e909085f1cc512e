// Generated from src/api/sources.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/sources.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/sources.js";
import type { Routed } from "../client.js";

export type * from "../../api/sources.js";

export const SOURCE_TYPES: typeof api.SOURCE_TYPES = ["nucliadb", "perplexity", "google", "mcp", "sync"];
export const createSource: Routed<typeof api.createSource> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/sources/:source_id",
  stream: false,
};
export const deleteSource: Routed<typeof api.deleteSource> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/sources/:source_id",
  stream: false,
};
export const getSource: Routed<typeof api.getSource> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/sources/:source_id",
  stream: false,
};
export const listSources: Routed<typeof api.listSources> = { method: "GET", path: "/api/v1/kb/:kbid/sources", stream: false };
export const updateSource: Routed<typeof api.updateSource> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/sources/:source_id",
  stream: false,
};
