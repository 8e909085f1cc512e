// Generated from src/api/agent-modules.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agent-modules.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agent-modules.js";
import type { Routed } from "../client.js";

export type * from "../../api/agent-modules.js";

export const contextModules: Routed<typeof api.contextModules> = {
  list: { method: "GET", path: "/api/v1/agent/:agent_id/context", stream: false },
  add: { method: "POST", path: "/api/v1/agent/:agent_id/context", stream: false },
  patch: { method: "PATCH", path: "/api/v1/agent/:agent_id/context/:module_id", stream: false },
  delete: { method: "DELETE", path: "/api/v1/agent/:agent_id/context/:module_id", stream: false },
  wfList: { method: "GET", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/context", stream: false },
  wfAdd: { method: "POST", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/context", stream: false },
  wfPatch: { method: "PATCH", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/context/:module_id", stream: false },
  wfDelete: { method: "DELETE", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/context/:module_id", stream: false },
};
export const generationModules: Routed<typeof api.generationModules> = {
  list: { method: "GET", path: "/api/v1/agent/:agent_id/generation", stream: false },
  add: { method: "POST", path: "/api/v1/agent/:agent_id/generation", stream: false },
  patch: { method: "PATCH", path: "/api/v1/agent/:agent_id/generation/:module_id", stream: false },
  delete: { method: "DELETE", path: "/api/v1/agent/:agent_id/generation/:module_id", stream: false },
  wfList: { method: "GET", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/generation", stream: false },
  wfAdd: { method: "POST", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/generation", stream: false },
  wfPatch: { method: "PATCH", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/generation/:module_id", stream: false },
  wfDelete: { method: "DELETE", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/generation/:module_id", stream: false },
};
export const postprocessModules: Routed<typeof api.postprocessModules> = {
  list: { method: "GET", path: "/api/v1/agent/:agent_id/postprocess", stream: false },
  add: { method: "POST", path: "/api/v1/agent/:agent_id/postprocess", stream: false },
  patch: { method: "PATCH", path: "/api/v1/agent/:agent_id/postprocess/:module_id", stream: false },
  delete: { method: "DELETE", path: "/api/v1/agent/:agent_id/postprocess/:module_id", stream: false },
  wfList: { method: "GET", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/postprocess", stream: false },
  wfAdd: { method: "POST", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/postprocess", stream: false },
  wfPatch: { method: "PATCH", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/postprocess/:module_id", stream: false },
  wfDelete: { method: "DELETE", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/postprocess/:module_id", stream: false },
};
export const preprocessModules: Routed<typeof api.preprocessModules> = {
  list: { method: "GET", path: "/api/v1/agent/:agent_id/preprocess", stream: false },
  add: { method: "POST", path: "/api/v1/agent/:agent_id/preprocess", stream: false },
  patch: { method: "PATCH", path: "/api/v1/agent/:agent_id/preprocess/:module_id", stream: false },
  delete: { method: "DELETE", path: "/api/v1/agent/:agent_id/preprocess/:module_id", stream: false },
  wfList: { method: "GET", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/preprocess", stream: false },
  wfAdd: { method: "POST", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/preprocess", stream: false },
  wfPatch: { method: "PATCH", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/preprocess/:module_id", stream: false },
  wfDelete: { method: "DELETE", path: "/api/v1/agent/:agent_id/workflow/:workflow_id/preprocess/:module_id", stream: false },
};
