// Generated from src/api/labelsets.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/labelsets.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/labelsets.js";
import type { Routed } from "../client.js";

export type * from "../../api/labelsets.js";

export const deleteLabelset: Routed<typeof api.deleteLabelset> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  stream: false,
};
export const getLabelset: Routed<typeof api.getLabelset> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  stream: false,
};
export const listLabelsets: Routed<typeof api.listLabelsets> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/labelsets",
  stream: false,
};
export const setLabelset: Routed<typeof api.setLabelset> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  stream: false,
};
