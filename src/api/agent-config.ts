/** A retrieval agent's configuration: workflows and their modules, rules, prompts and drivers. */
import { z } from "zod";
import { AGENT_KB, AgentParams, Done } from "./agents.js";
import { route } from "./route.js";

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();
const Id = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[A-Za-z0-9_.:-]+$/, "Ids may hold letters, digits and _ . : -");

export const MODULE_KINDS = ["preprocess", "context", "generation", "postprocess"] as const;
export type ModuleKind = (typeof MODULE_KINDS)[number];
/** Module names by kind (the service's); kbox runs the ones in RUNS and records the others as skipped steps. */
export const MODULE_NAMES: Record<ModuleKind, readonly string[]> = {
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

/** What kbox runs of each kind; the other modules are kept and reported as skipped steps. */
export const MODULES_RUN: Record<ModuleKind, readonly string[]> = {
  preprocess: ["rephrase", "historical"],
  context: ["ask", "basic_ask", "advanced_ask", "smart"],
  generation: ["generate", "summarize"],
  postprocess: [],
};

/** A module: its name, and members kbox reads (model, prompt, prompt_id, sources, top_k, rules); others are kept. */
export const Module = z
  .object({
    module: z.string().min(1),
    id: opt(z.string()),
    title: opt(z.string()),
    rules: opt(z.unknown()),
    model: opt(z.string()),
    validate_model: opt(z.string()),
    /** generation: the system prompt, or a stored prompt's id. */
    prompt: opt(z.string()),
    prompt_id: opt(z.string()),
    /** context: the drivers (ids or identifiers) to query; none: every driver. */
    sources: opt(z.array(z.string())),
    top_k: opt(z.number().int().min(1).max(50)),
  })
  .passthrough();
export type Module = z.infer<typeof Module>;

export const Rule = z.union([z.string(), z.object({ prompt: z.string() }).passthrough()]);
export const Rules = z.object({ rules: z.array(Rule) });

export const Workflow = z.object({
  id: Id,
  name: z.string().min(1),
  description: opt(z.string()),
  parameters: opt(z.record(z.string(), z.unknown())),
  rules: opt(z.unknown()),
  required: z.array(z.string()).default([]),
});
export type Workflow = z.infer<typeof Workflow>;

export const Prompt = z.object({
  name: z.string().min(1),
  description: z.string(),
  prompt: z.string().min(1),
  arguments: opt(z.array(z.unknown())),
  icons: opt(z.record(z.string(), z.unknown())),
  meta: opt(z.record(z.string(), z.unknown())),
  prompt_id: opt(Id),
});
export type Prompt = z.infer<typeof Prompt>;

/** Providers kbox queries: a knowledge box of this daemon (`local`), or a kbox / zone KB over HTTP (`nucliadb` with a url). */
export const DRIVER_PROVIDERS = ["local", "nucliadb"] as const;
export const Driver = z.object({
  id: opt(Id),
  identifier: z.string().min(1),
  name: z.string().min(1),
  provider: z.string().min(1),
  config: z.record(z.string(), z.unknown()),
});
export type Driver = z.infer<typeof Driver>;
export const DriverRecord = z.object({
  id: z.string(),
  identifier: z.string(),
  name: z.string(),
  provider: z.string(),
  /** Secrets (key, password, headers...) are never sent back. */
  config: z.record(z.string(), z.unknown()),
});

const WfParams = AgentParams.extend({ workflow_id: z.string().min(1) });
const idOut = z.object({ id: z.string() });
const A = "/api/v1/agent/:agent_id";
const owner = { kb: AGENT_KB, role: "OWNER" } as const;

export const listWorkflows = route({
  method: "GET",
  path: `${A}/workflows`,
  params: AgentParams,
  response: z.array(Workflow.extend({ required: z.array(z.string()) })),
  kb: AGENT_KB,
  role: "READER",
  summary: "List workflows (default always exists)",
});
export const addWorkflow = route({
  method: "POST",
  path: `${A}/workflows`,
  params: AgentParams,
  body: Workflow,
  response: idOut,
  ...owner,
  summary: "Add a workflow",
});
export const setWorkflow = route({
  method: "PATCH",
  path: `${A}/workflow/:workflow_id`,
  params: WfParams,
  body: Workflow.omit({ id: true }).partial(),
  response: Done,
  ...owner,
  summary: "Change a workflow",
});
export const deleteWorkflow = route({
  method: "DELETE",
  path: `${A}/workflow/:workflow_id`,
  params: WfParams,
  response: Done,
  ...owner,
  summary: "Delete a workflow (not the default one)",
});

export const getRules = route({
  method: "GET",
  path: `${A}/rules`,
  params: AgentParams,
  response: Rules,
  ...owner,
  summary: "The default workflow's rules",
});
export const setRules = route({
  method: "POST",
  path: `${A}/rules`,
  params: AgentParams,
  body: Rules,
  response: Done,
  ...owner,
  summary: "Set the default workflow's rules",
});
export const getWorkflowRules = route({
  method: "GET",
  path: `${A}/workflow/:workflow_id/rules`,
  params: WfParams,
  response: Rules,
  ...owner,
  summary: "A workflow's rules",
});
export const setWorkflowRules = route({
  method: "POST",
  path: `${A}/workflow/:workflow_id/rules`,
  params: WfParams,
  body: Rules,
  response: Done,
  ...owner,
  summary: "Set a workflow's rules",
});

const PromptParams = AgentParams.extend({ prompt_id: z.string() });
const PromptRecord = Prompt.extend({ prompt_id: z.string() });
export const listPrompts = route({
  method: "GET",
  path: `${A}/prompts`,
  params: AgentParams,
  response: z.array(PromptRecord),
  ...owner,
  summary: "List prompts",
});
export const addPrompt = route({
  method: "POST",
  path: `${A}/prompts`,
  params: AgentParams,
  body: Prompt,
  response: idOut,
  ...owner,
  summary: "Add a prompt",
});
export const getPrompt = route({
  method: "GET",
  path: `${A}/prompt/:prompt_id`,
  params: PromptParams,
  response: PromptRecord,
  ...owner,
  summary: "One prompt",
});
export const patchPrompt = route({
  method: "PATCH",
  path: `${A}/prompt/:prompt_id`,
  params: PromptParams,
  body: Prompt.partial(),
  response: Done,
  ...owner,
  summary: "Change a prompt",
});
export const deletePrompt = route({
  method: "DELETE",
  path: `${A}/prompt/:prompt_id`,
  params: PromptParams,
  response: Done,
  ...owner,
  summary: "Delete a prompt",
});

const DriverParams = AgentParams.extend({ driver: z.string() });
export const listDrivers = route({
  method: "GET",
  path: `${A}/drivers`,
  params: AgentParams,
  response: z.array(DriverRecord),
  ...owner,
  summary: "List drivers (secrets stripped)",
});
export const addDriver = route({
  method: "POST",
  path: `${A}/drivers`,
  params: AgentParams,
  body: Driver,
  response: idOut,
  ...owner,
  summary: "Add a driver: a source the agent queries (config encrypted at rest)",
});
export const patchDriver = route({
  method: "PATCH",
  path: `${A}/driver/:driver`,
  params: DriverParams,
  body: Driver.partial(),
  response: Done,
  ...owner,
  summary: "Change a driver (secrets left out keep their value)",
});
export const deleteDriver = route({
  method: "DELETE",
  path: `${A}/driver/:driver`,
  params: DriverParams,
  response: Done,
  ...owner,
  summary: "Delete a driver",
});

export const agentSchema = route({
  method: "GET",
  path: `${A}/schema`,
  params: AgentParams,
  response: z.record(z.string(), z.unknown()),
  kb: AGENT_KB,
  role: "READER",
  summary: "A JSON schema per module name by kind and per driver provider (runs: the modules kbox runs)",
});
