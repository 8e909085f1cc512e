// Generated from src/api/entities.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/entities.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/entities.js";
import type { Routed } from "../client.js";

export type * from "../../api/entities.js";

export const createEntitiesGroup: Routed<typeof api.createEntitiesGroup> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/entitiesgroups",
  stream: false,
};
export const deleteEntitiesGroup: Routed<typeof api.deleteEntitiesGroup> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  stream: false,
};
export const getEntitiesGroup: Routed<typeof api.getEntitiesGroup> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  stream: false,
};
export const listEntitiesGroups: Routed<typeof api.listEntitiesGroups> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/entitiesgroups",
  stream: false,
};
export const updateEntitiesGroup: Routed<typeof api.updateEntitiesGroup> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  stream: false,
};
