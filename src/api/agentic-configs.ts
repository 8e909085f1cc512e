import { z } from "zod";
import { route } from "./route.js";

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** A model of an agentic configuration: `{_type: "llm_config", model_id}` (a generative model name). */
export const LlmConfig = z.object({ _type: z.literal("llm_config"), model_id: z.string().trim().min(1) });
export type LlmConfig = z.infer<typeof LlmConfig>;

/** How the question is rephrased before retrieval: a prompt with `{question}` (and `{history}`), a model. */
export const RephraseSection = z.object({
  ask_to: opt(z.string()),
  prompt: opt(z.string()),
  model: opt(LlmConfig),
  history: opt(z.boolean()),
});
export const SmartAgentSection = z.object({
  mode: opt(z.enum(["reactive", "plan_execute"])),
  extra_prompt: opt(z.string()),
  models: opt(z.object({ context_validation: opt(LlmConfig), planner: opt(LlmConfig), executor: opt(LlmConfig) })),
  sources: opt(z.array(z.string())),
  history: opt(z.boolean()),
});
/** How the answer is written: system and user prompts (`{context}`, `{question}`), a model. */
export const SummarizeSection = z.object({
  user_prompt: opt(z.string()),
  system_prompt: opt(z.string()),
  conversational: opt(z.boolean()),
  model: opt(LlmConfig),
  history: opt(z.boolean()),
});

/** An agentic configuration: what `agentic_config_id` in ask applies over the request's own parameters. */
export const AgenticConfig = z.object({
  title: opt(z.string()),
  rephrase: opt(RephraseSection),
  smart_agent: opt(SmartAgentSection),
  summarize: opt(SummarizeSection),
});
export type AgenticConfig = z.infer<typeof AgenticConfig>;

const KbOnly = z.object({ kbid: z.string() });
const Params = KbOnly.extend({
  agentic_id: z
    .string()
    .min(1)
    .max(250)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Configuration ids may hold letters, digits and _ . : -"),
});
const PATH = "/api/v1/kb/:kbid/agentic_configs/:agentic_id";

export const listAgenticConfigs = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/agentic_configs",
  params: KbOnly,
  response: z.record(z.string(), AgenticConfig),
  role: "READER",
  summary: "Every agentic configuration of the knowledge box, by id (nulls omitted)",
});
export const getAgenticConfig = route({
  method: "GET",
  path: PATH,
  params: Params,
  response: AgenticConfig,
  role: "READER",
  summary: "Read an agentic configuration",
});
export const createAgenticConfig = route({
  method: "POST",
  path: PATH,
  params: Params,
  body: AgenticConfig,
  status: 201,
  role: "OWNER",
  summary: "Create an agentic configuration (409 when the id is taken)",
});
export const updateAgenticConfig = route({
  method: "PATCH",
  path: PATH,
  params: Params,
  body: AgenticConfig,
  status: 204,
  role: "OWNER",
  summary: "Update an agentic configuration: the sections given replace those stored (null removes one)",
});
export const deleteAgenticConfig = route({
  method: "DELETE",
  path: PATH,
  params: Params,
  status: 204,
  role: "OWNER",
  summary: "Delete an agentic configuration",
});
