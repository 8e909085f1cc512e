/** Modules of an agent's workflows, by kind: the default workflow's (legacy paths) and any workflow's. */
import { z } from "zod";
import { Module, type ModuleKind } from "./agent-config.js";
import { AGENT_KB, AgentParams, Done } from "./agents.js";
import { route } from "./route.js";

const WfParams = AgentParams.extend({ workflow_id: z.string().min(1) });
const idOut = z.object({ id: z.string() });
const A = "/api/v1/agent/:agent_id";
const owner = { kb: AGENT_KB, role: "OWNER" } as const;

/** The eight routes of one module kind: the default workflow's (legacy paths) and any workflow's. */
function moduleRoutes(kind: ModuleKind) {
  const ModParams = AgentParams.extend({ module_id: z.string() });
  const WfModParams = WfParams.extend({ module_id: z.string() });
  const list = z.array(Module.extend({ id: z.string() }));
  const W = `${A}/workflow/:workflow_id/${kind}`;
  return {
    list: route({
      method: "GET",
      path: `${A}/${kind}`,
      params: AgentParams,
      response: list,
      ...owner,
      summary: `List ${kind} modules`,
    }),
    add: route({
      method: "POST",
      path: `${A}/${kind}`,
      params: AgentParams,
      body: Module,
      response: idOut,
      ...owner,
      summary: `Add a ${kind} module`,
    }),
    patch: route({
      method: "PATCH",
      path: `${A}/${kind}/:module_id`,
      params: ModParams,
      body: Module,
      response: Done,
      ...owner,
      summary: `Change a ${kind} module`,
    }),
    delete: route({
      method: "DELETE",
      path: `${A}/${kind}/:module_id`,
      params: ModParams,
      response: Done,
      ...owner,
      summary: `Delete a ${kind} module`,
    }),
    wfList: route({
      method: "GET",
      path: W,
      params: WfParams,
      response: list,
      ...owner,
      summary: `List a workflow's ${kind} modules`,
    }),
    wfAdd: route({
      method: "POST",
      path: W,
      params: WfParams,
      body: Module,
      response: idOut,
      ...owner,
      summary: `Add a ${kind} module to a workflow`,
    }),
    wfPatch: route({
      method: "PATCH",
      path: `${W}/:module_id`,
      params: WfModParams,
      body: Module,
      response: Done,
      ...owner,
      summary: `Change a workflow's ${kind} module`,
    }),
    wfDelete: route({
      method: "DELETE",
      path: `${W}/:module_id`,
      params: WfModParams,
      response: Done,
      ...owner,
      summary: `Delete a workflow's ${kind} module`,
    }),
  };
}

export const preprocessModules = moduleRoutes("preprocess");
export const contextModules = moduleRoutes("context");
export const generationModules = moduleRoutes("generation");
export const postprocessModules = moduleRoutes("postprocess");
