// Generated from src/api/search.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/search.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/search.js";
import type { Routed } from "../client.js";

export type * from "../../api/search.js";

export const catalog: Routed<typeof api.catalog> = { method: "POST", path: "/api/v1/kb/:kbid/catalog", stream: false };
export const catalogFacets: Routed<typeof api.catalogFacets> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/catalog/facets",
  stream: false,
};
export const catalogGet: Routed<typeof api.catalogGet> = { method: "GET", path: "/api/v1/kb/:kbid/catalog", stream: false };
export const search: Routed<typeof api.search> = { method: "POST", path: "/api/v1/kb/:kbid/search", stream: false };
export const searchGet: Routed<typeof api.searchGet> = { method: "GET", path: "/api/v1/kb/:kbid/search", stream: false };
export const suggest: Routed<typeof api.suggest> = { method: "GET", path: "/api/v1/kb/:kbid/suggest", stream: false };
