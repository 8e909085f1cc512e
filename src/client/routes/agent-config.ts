// Generated from src/api/agent-config.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agent-config.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agent-config.js";
import type { Routed } from "../client.js";

export type * from "../../api/agent-config.js";

export const DRIVER_PROVIDERS: typeof api.DRIVER_PROVIDERS = ["local", "nucliadb"];
export const MODULES_RUN: typeof api.MODULES_RUN = {
  preprocess: ["rephrase", "historical"],
  context: ["ask", "basic_ask", "advanced_ask", "smart"],
  generation: ["generate", "summarize"],
  postprocess: [],
};
export const MODULE_KINDS: typeof api.MODULE_KINDS = ["preprocess", "context", "generation", "postprocess"];
export const MODULE_NAMES: typeof api.MODULE_NAMES = {
  preprocess: ["historical", "rephrase", "pre_conditional", "preprocess_alinia"],
  context: [
    "brave",
    "perplexity",
    "tavily",
    "google",
    "sql",
    "mcp",
    "cypher",
    "basic_ask",
    "ask",
    "advanced_ask",
    "context_conditional",
    "restricted",
    "sparql",
    "static",
    "smart",
    "sync",
  ],
  generation: ["summarize", "generate", "data_viz"],
  postprocess: ["restart", "remi", "external", "post_conditional", "postprocess_alinia"],
};
export const addDriver: Routed<typeof api.addDriver> = { method: "POST", path: "/api/v1/agent/:agent_id/drivers", stream: false };
export const addPrompt: Routed<typeof api.addPrompt> = { method: "POST", path: "/api/v1/agent/:agent_id/prompts", stream: false };
export const addWorkflow: Routed<typeof api.addWorkflow> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/workflows",
  stream: false,
};
export const agentSchema: Routed<typeof api.agentSchema> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/schema",
  stream: false,
};
export const deleteDriver: Routed<typeof api.deleteDriver> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/driver/:driver",
  stream: false,
};
export const deletePrompt: Routed<typeof api.deletePrompt> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/prompt/:prompt_id",
  stream: false,
};
export const deleteWorkflow: Routed<typeof api.deleteWorkflow> = {
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id",
  stream: false,
};
export const getPrompt: Routed<typeof api.getPrompt> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/prompt/:prompt_id",
  stream: false,
};
export const getRules: Routed<typeof api.getRules> = { method: "GET", path: "/api/v1/agent/:agent_id/rules", stream: false };
export const getWorkflowRules: Routed<typeof api.getWorkflowRules> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/rules",
  stream: false,
};
export const listDrivers: Routed<typeof api.listDrivers> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/drivers",
  stream: false,
};
export const listPrompts: Routed<typeof api.listPrompts> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/prompts",
  stream: false,
};
export const listWorkflows: Routed<typeof api.listWorkflows> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/workflows",
  stream: false,
};
export const patchDriver: Routed<typeof api.patchDriver> = {
  method: "PATCH",
  path: "/api/v1/agent/:agent_id/driver/:driver",
  stream: false,
};
export const patchPrompt: Routed<typeof api.patchPrompt> = {
  method: "PATCH",
  path: "/api/v1/agent/:agent_id/prompt/:prompt_id",
  stream: false,
};
export const setRules: Routed<typeof api.setRules> = { method: "POST", path: "/api/v1/agent/:agent_id/rules", stream: false };
export const setWorkflow: Routed<typeof api.setWorkflow> = {
  method: "PATCH",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id",
  stream: false,
};
export const setWorkflowRules: Routed<typeof api.setWorkflowRules> = {
  method: "POST",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/rules",
  stream: false,
};
