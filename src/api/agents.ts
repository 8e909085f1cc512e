/**
 * Retrieval agents: sessions, interaction, audit downloads, export and import. An agent is a
 * knowledge box of mode `agent` (or `agent_no_memory`) made through the account API; its paths live
 * under `/api/v1/agent/:agent_id`. The configuration routes (workflows, modules, rules, prompts,
 * drivers) are in agent-config.ts.
 */
import { z } from "zod";
import { route } from "./route.js";

/** What the service answers for a change: 200 with JSON null (clients read a JSON body). */
export const Done = z.null();

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const AgentParams = z.object({ agent_id: z.string() });
/** The agent is the route's knowledge box: keys scoped to another box get 403. */
export const AGENT_KB = { param: "agent_id", as: "id" } as const;

export const SessionFormat = z.enum([
  "PLAIN",
  "HTML",
  "RST",
  "MARKDOWN",
  "JSON",
  "KEEP_MARKDOWN",
  "JSONL",
  "PLAIN_BLANKLINE_SPLIT",
]);
export const SessionBody = z.object({
  slug: z
    .string()
    .min(1)
    .max(250)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Session slugs may hold letters, digits and _ . : -"),
  name: z.string(),
  summary: z.string(),
  data: z.string(),
  format: SessionFormat,
});
export type SessionBody = z.infer<typeof SessionBody>;

/** One question and its answer in a session's history (and in an explicit chat_history). */
export const ChatTurn = z.object({ question: z.string(), answer: z.string() });
export type ChatTurn = z.infer<typeof ChatTurn>;

/** A session as a resource: basic members, the data as a text field, the history as a conversation. */
export const SessionRecord = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    created: z.string(),
    modified: z.string(),
    data: z.object({
      texts: z.record(z.string(), z.object({ value: z.object({ body: z.string(), format: z.string() }) })),
      conversations: z.record(z.string(), z.object({ value: z.object({ messages: z.array(z.unknown()) }) })),
    }),
  })
  .passthrough();
export type SessionRecord = z.infer<typeof SessionRecord>;

export const InteractionRequest = z.object({
  question: z.string(),
  headers: z.record(z.string(), z.unknown()).default({}),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** Set (even empty): it replaces the session's history for this interaction. */
  chat_history: opt(z.array(ChatTurn)),
  /** 0 question, 1 quit. */
  operation: z.union([z.literal(0), z.literal(1)]).default(0),
  /** true: the answer's text streams as it is generated; false: steps, then the answer whole. */
  streaming: z.boolean().default(false),
});
export type InteractionRequest = z.infer<typeof InteractionRequest>;

export const AragStep = z
  .object({
    module: z.string(),
    title: z.string(),
    value: z.string(),
    agent_path: z.string(),
    reason: opt(z.string()),
    timeit: z.number(),
    input_nuclia_tokens: opt(z.number()),
    output_nuclia_tokens: opt(z.number()),
    error: opt(z.string()),
  })
  .passthrough();

/** One item of an interaction: a step, a driver's context, a piece of text, the answer, or the end. */
export const AragAnswer = z
  .object({
    exception: opt(z.object({ detail: z.string() }).passthrough()),
    answer: opt(z.string()),
    answer_citations: opt(z.record(z.string(), z.unknown())),
    generated_text: opt(z.string()),
    step: opt(AragStep),
    possible_answer: opt(z.object({ answer: z.string(), module: z.string(), agent_path: z.string() })),
    context: opt(z.record(z.string(), z.unknown())),
    /** 0 answer, 1 quit, 2 start, 3 done, 4 error. */
    operation: z.number().int(),
    seqid: opt(z.number().int()),
    original_question_uuid: opt(z.string()),
    actual_question_uuid: opt(z.string()),
    /** The whole (non-streaming) form only: every step and context of the interaction. */
    steps: opt(z.array(AragStep)),
    contexts: opt(z.array(z.record(z.string(), z.unknown()))),
  })
  .passthrough();
export type AragAnswer = z.infer<typeof AragAnswer>;

export const SessionParams = AgentParams.extend({ session: z.string().min(1) });
const WorkflowSessionParams = SessionParams.extend({ workflow_id: z.string().min(1) });
const interactionError = (detail: string) => ({ exception: { detail }, operation: 4 });

export const listSessions = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/sessions",
  params: AgentParams,
  query: z.object({ page: z.coerce.number().int().min(0).default(0), size: z.coerce.number().int().min(1).max(200).default(20) }),
  response: z.object({
    resources: z.array(SessionRecord),
    pagination: z.object({ page: z.number(), size: z.number(), last: z.boolean() }),
  }),
  kb: AGENT_KB,
  role: "OWNER",
  summary: "List an agent's sessions (newest first)",
});
export const createSession = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/sessions",
  params: AgentParams,
  body: SessionBody,
  response: z.object({ uuid: z.string(), elapsed: z.number().nullable(), seqid: z.number().nullable() }),
  status: 201,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Create a session (needs an agent with memory)",
});
export const getSession = route({
  method: "GET",
  path: "/api/v1/agent/:agent_id/session/:session",
  params: SessionParams,
  response: SessionRecord,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "A session, with its history",
});
export const patchSession = route({
  method: "PATCH",
  path: "/api/v1/agent/:agent_id/session/:session",
  params: SessionParams,
  body: SessionBody.partial(),
  response: Done,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Change a session's slug, name, summary or data",
});
export const deleteSession = route({
  method: "DELETE",
  path: "/api/v1/agent/:agent_id/session/:session",
  params: SessionParams,
  response: Done,
  kb: AGENT_KB,
  role: "OWNER",
  summary: "Delete a session and its history",
});

/** `session` `ephemeral` runs without a session (no history kept). */
export const interact = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/session/:session",
  params: SessionParams,
  query: z.object({ workflow_id: z.string().min(1).default("default") }),
  body: InteractionRequest,
  response: AragAnswer,
  stream: "ndjson",
  streamError: interactionError,
  kb: AGENT_KB,
  role: "READER",
  summary: "Ask the agent: plan, retrieve from its drivers, answer (NDJSON steps with streaming, else one JSON answer)",
});
export const interactWorkflow = route({
  method: "POST",
  path: "/api/v1/agent/:agent_id/workflow/:workflow_id/session/:session",
  params: WorkflowSessionParams,
  body: InteractionRequest,
  response: AragAnswer,
  stream: "ndjson",
  streamError: interactionError,
  kb: AGENT_KB,
  role: "READER",
  summary: "Ask the agent through one workflow",
});
