// Generated from src/api/learning.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/learning.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/learning.js";
import type { Routed } from "../client.js";

export type * from "../../api/learning.js";

export const availableModels: Routed<typeof api.availableModels> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/models",
  stream: false,
};
export const configurationSchema: Routed<typeof api.configurationSchema> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/schema",
  stream: false,
};
export const deleteConfiguration: Routed<typeof api.deleteConfiguration> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/configuration",
  stream: false,
};
export const getConfiguration: Routed<typeof api.getConfiguration> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/configuration",
  stream: false,
};
export const patchConfiguration: Routed<typeof api.patchConfiguration> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/configuration",
  stream: false,
};
export const setConfiguration: Routed<typeof api.setConfiguration> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/configuration",
  stream: false,
};
