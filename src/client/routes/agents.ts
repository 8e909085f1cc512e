// Generated from src/api/agents.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agents.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agents.js";
import type { Routed } from "../client.js";

export type * from "../../api/agents.js";

export const AGENT_KB: typeof api.AGENT_KB = { param: "agent_id", as: "id" };
export const createSession: Routed<typeof api.createSession> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/sessions",
  stream: false,
};
export const deleteSession: Routed<typeof api.deleteSession> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/session/:session",
  stream: false,
};
export const getSession: Routed<typeof api.getSession> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/session/:session",
  stream: false,
};
export const interact: Routed<typeof api.interact> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/session/:session",
  stream: "ndjson",
};
export const interactWorkflow: Routed<typeof api.interactWorkflow> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/session/:session",
  stream: "ndjson",
};
export const listSessions: Routed<typeof api.listSessions> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/sessions",
  stream: false,
};
export const patchSession: Routed<typeof api.patchSession> = {
  method: "PATCH",
  path: "/api/v1/agent/:agent_id/session/:session",
  stream: false,
};
