// Generated from src/api/search-configs.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/search-configs.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/search-configs.js";
import type { Routed } from "../client.js";

export type * from "../../api/search-configs.js";

export const createSearchConfig: Routed<typeof api.createSearchConfig> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  stream: false,
};
export const deleteSearchConfig: Routed<typeof api.deleteSearchConfig> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  stream: false,
};
export const getSearchConfig: Routed<typeof api.getSearchConfig> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  stream: false,
};
export const listSearchConfigs: Routed<typeof api.listSearchConfigs> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/search_configurations",
  stream: false,
};
export const updateSearchConfig: Routed<typeof api.updateSearchConfig> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  stream: false,
};
