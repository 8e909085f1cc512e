import { z } from "zod";
import { FilterExpression } from "./filters.js";
import { route } from "./route.js";

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** The knowledge box itself, or the part of it a filter selects: the one kind of source kbox can search. */
export const NucliadbSource = z.object({
  type: z.literal("nucliadb"),
  description: opt(z.string()),
  filter_expression: opt(FilterExpression),
  labels: opt(z.array(z.string())),
  resource_filters: opt(z.array(z.string())),
});
/** Web search through Perplexity (stored; kbox runs no web search). */
export const PerplexitySource = z.object({
  type: z.literal("perplexity"),
  description: opt(z.string()),
  enabled_domains: opt(z.array(z.string())),
});
/** Web search through Google (stored; kbox runs no web search). */
export const GoogleSource = z.object({
  type: z.literal("google"),
  description: opt(z.string()),
  time_range: opt(z.enum(["past_day", "past_week", "past_month", "past_year"])),
  exclude_domains: opt(z.array(z.string())),
});
/** A remote MCP server's tools (stored; an ask does not call them). */
export const McpSource = z.object({
  type: z.literal("mcp"),
  description: opt(z.string()),
  uri: z.string().trim().min(1),
  headers: opt(z.record(z.string(), z.string())),
  tool_choice_model: opt(z.string()),
  valid_headers: opt(z.array(z.string())),
});
/** An external-connection sync (stored; an ask does not read it). */
export const SyncSource = z.object({
  type: z.literal("sync"),
  source_id: opt(z.string()),
  description: opt(z.string()),
  connection: opt(z.string()),
  params: opt(z.record(z.string(), z.unknown())),
});

/** A source an agentic configuration's `smart_agent.sources` may name; the body depends on `type`. */
export const Source = z.discriminatedUnion("type", [NucliadbSource, PerplexitySource, GoogleSource, McpSource, SyncSource]);
export type Source = z.infer<typeof Source>;
export const SOURCE_TYPES = ["nucliadb", "perplexity", "google", "mcp", "sync"] as const;

/** An update: the members given replace those stored (null removes one); the result is checked as a source. */
export const SourcePatch = z.looseObject({ type: z.enum(SOURCE_TYPES).optional() });
export type SourcePatch = z.infer<typeof SourcePatch>;

const KbOnly = z.object({ kbid: z.string() });
const Params = KbOnly.extend({
  source_id: z
    .string()
    .min(1)
    .max(250)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Source ids may hold letters, digits and _ . : -"),
});
const PATH = "/api/v1/kb/:kbid/sources/:source_id";

export const listSources = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sources",
  params: KbOnly,
  response: z.record(z.string(), Source),
  role: "READER",
  summary: "Every source of the knowledge box, by id (nulls omitted)",
});
export const getSource = route({
  method: "GET",
  path: PATH,
  params: Params,
  response: Source,
  role: "READER",
  summary: "Read a source",
});
export const createSource = route({
  method: "POST",
  path: PATH,
  params: Params,
  body: Source,
  status: 201,
  role: "MANAGER",
  summary: "Create a source (409 when the id is taken)",
});
export const updateSource = route({
  method: "PATCH",
  path: PATH,
  params: Params,
  body: SourcePatch,
  status: 204,
  role: "MANAGER",
  summary: "Update a source: the members given replace those stored (null removes one)",
});
export const deleteSource = route({
  method: "DELETE",
  path: PATH,
  params: Params,
  status: 204,
  role: "MANAGER",
  summary: "Delete a source and every agentic configuration that names it",
});
