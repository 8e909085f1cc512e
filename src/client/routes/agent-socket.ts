// Generated from src/api/agent-socket.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agent-socket.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agent-socket.js";
import type { Routed } from "../client.js";

export type * from "../../api/agent-socket.js";

export const interactSocket: Routed<typeof api.interactSocket> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/session/:session/ws",
  stream: false,
};
export const interactSocketWorkflow: Routed<typeof api.interactSocketWorkflow> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/session/:session/ws",
  stream: false,
};
