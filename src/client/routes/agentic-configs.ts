// Generated from src/api/agentic-configs.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agentic-configs.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agentic-configs.js";
import type { Routed } from "../client.js";

export type * from "../../api/agentic-configs.js";

export const createAgenticConfig: Routed<typeof api.createAgenticConfig> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/agentic_configs/:agentic_id",
  stream: false,
};
export const deleteAgenticConfig: Routed<typeof api.deleteAgenticConfig> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/agentic_configs/:agentic_id",
  stream: false,
};
export const getAgenticConfig: Routed<typeof api.getAgenticConfig> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/agentic_configs/:agentic_id",
  stream: false,
};
export const listAgenticConfigs: Routed<typeof api.listAgenticConfigs> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/agentic_configs",
  stream: false,
};
export const updateAgenticConfig: Routed<typeof api.updateAgenticConfig> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/agentic_configs/:agentic_id",
  stream: false,
};
