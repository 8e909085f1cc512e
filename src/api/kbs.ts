import { z } from "zod";
import { KbSlug } from "./common.js";
import { ModelConfiguration } from "./learning.js";
import { route } from "./route.js";

/** Path parameter kbid: anything, so that a malformed id gets the wire's 404 rather than a 422. */
export const KbParams = z.object({ kbid: z.string() });

export const LearningConfiguration = z
  .object({
    semantic_model: z.string().optional(),
    semantic_models: z.array(z.string()).optional(),
    default_semantic_model: z.string().optional(),
    generative_model: z.string().optional(),
    summary: z.string().optional(),
    user_prompts: z.record(z.string(), z.unknown()).nullable().optional(),
    prefer_markdown_generative_response: z.boolean().optional(),
  })
  .loose();
export type LearningConfiguration = z.infer<typeof LearningConfiguration>;

const KbConfigInput = {
  title: z.string().max(1000).optional(),
  description: z.string().max(100_000).optional(),
  allowed_origins: z.array(z.string()).optional(),
  allowed_ip_addresses: z.array(z.string()).optional(),
  search_configs: z.record(z.string(), z.unknown()).optional(),
  enforce_security: z.boolean().optional(),
  hidden_resources_enabled: z.boolean().optional(),
  hidden_resources_hide_on_creation: z.boolean().optional(),
};

/** Unknown keys (e.g. `zone`) are ignored, as the hosted service does. */
export const CreateKb = z.object({
  slug: KbSlug.optional(),
  ...KbConfigInput,
  learning_configuration: LearningConfiguration.optional(),
});
export type CreateKb = z.infer<typeof CreateKb>;

export const KbConfig = z.object({
  title: z.string(),
  description: z.string(),
  slug: z.string(),
  state: z.string(),
  created: z.string(),
  allowed_origins: z.array(z.string()),
  allowed_ip_addresses: z.array(z.string()),
  search_configs: z.record(z.string(), z.unknown()),
  enforce_security: z.boolean(),
  hidden_resources_enabled: z.boolean(),
  hidden_resources_hide_on_creation: z.boolean(),
});
export type KbConfig = z.infer<typeof KbConfig>;

/** The effective model configuration (see learning.ts), with the upstream SemanticModelMetadata members the Python SDK requires. */
export const KbModel = ModelConfiguration.extend({
  similarity_function: z.enum(["cosine", "dot"]),
  /** The default vectorset's dimension; null when keyword-only. */
  vector_dimension: z.number().int().nullable(),
  default_min_score: z.number().nullable(),
});
export type KbModel = z.infer<typeof KbModel>;

export const KbRecord = z.object({
  uuid: z.string(),
  slug: z.string(),
  config: KbConfig,
  model: KbModel.nullable(),
});
export type KbRecord = z.infer<typeof KbRecord>;

export const createKb = route({
  method: "POST",
  path: "/api/v1/kbs",
  scope: "account",
  body: CreateKb,
  response: z.object({ uuid: z.string(), slug: z.string() }),
  status: 201,
  role: "MANAGER",
  summary: "Create a knowledge box",
});

export const listKbs = route({
  method: "GET",
  path: "/api/v1/kbs",
  response: z.object({ kbs: z.array(z.object({ slug: z.string(), uuid: z.string(), title: z.string().optional() })) }),
  // A key scoped to one knowledge box lists that box only.
  scope: "authenticated",
  role: "READER",
  summary: "List knowledge boxes",
});

export const getKb = route({
  method: "GET",
  path: "/api/v1/kb/:kbid",
  params: KbParams,
  response: KbRecord,
  role: "READER",
  summary: "Get a knowledge box",
});

export const getKbBySlug = route({
  method: "GET",
  path: "/api/v1/kb/s/:slug",
  params: z.object({ slug: z.string() }),
  response: KbRecord,
  kb: { param: "slug", as: "slug" },
  role: "READER",
  summary: "Get a knowledge box by slug",
});

export const UpdateKb = z.object({
  slug: KbSlug.nullable().optional(),
  title: z.string().max(1000).nullable().optional(),
  description: z.string().max(100_000).nullable().optional(),
  state: z.string().nullable().optional(),
  allowed_origins: z.array(z.string()).nullable().optional(),
  allowed_ip_addresses: z.array(z.string()).nullable().optional(),
  search_configs: z.record(z.string(), z.unknown()).nullable().optional(),
  enforce_security: z.boolean().nullable().optional(),
  hidden_resources_enabled: z.boolean().nullable().optional(),
  hidden_resources_hide_on_creation: z.boolean().nullable().optional(),
});
export type UpdateKb = z.infer<typeof UpdateKb>;

export const updateKb = route({
  method: "PATCH",
  path: "/api/v1/kb/:kbid",
  params: KbParams,
  body: UpdateKb,
  response: z.object({ uuid: z.string() }),
  role: "MANAGER",
  summary: "Update a knowledge box (null means no change)",
});

export const deleteKb = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid",
  params: KbParams,
  response: z.object({ uuid: z.string() }),
  role: "MANAGER",
  summary: "Delete a knowledge box and all its data",
});

export const Counters = z.object({
  resources: z.number().int(),
  paragraphs: z.number().int(),
  fields: z.number().int(),
  sentences: z.number().int(),
  index_size: z.number(),
});
export const counters = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/counters",
  params: KbParams,
  response: Counters,
  role: "READER",
  summary: "Counts of resources, fields and paragraphs",
});

/** The account-level record of the management API. */
export const KbAccountRecord = z.object({
  id: z.string(),
  slug: z.string(),
  account_id: z.string(),
  zone: z.string(),
  title: z.string(),
  description: z.string(),
  state: z.string(),
  created: z.string(),
  admin: z.boolean(),
  contrib: z.boolean(),
  allowed_origins: z.array(z.string()),
  allowed_ip_addresses: z.array(z.string()),
  search_configs: z.record(z.string(), z.unknown()),
  external_index_provider: z.string().nullable(),
  enforce_security: z.boolean(),
});

const AccountParams = z.object({ account_id: z.string() });
const AccountKbParams = z.object({ account_id: z.string(), kb_id: z.string() });
const Bool = z.enum(["true", "false", "True", "False", "1", "0"]);

export const accountCreateKb = route({
  method: "POST",
  path: "/api/v1/account/:account_id/kbs",
  params: AccountParams,
  body: CreateKb.extend({
    slug: KbSlug,
    title: z.string().min(1),
    /** `agent` or `agent_no_memory` make a retrieval agent (docs/agents.md). */
    mode: z.enum(["kb", "agent", "agent_no_memory"]).optional(),
    /** Only none: kbox indexes into its own LanceDB tables (422 names the member). */
    external_index_provider: z.null({ error: "kbox keeps its own index: external index providers are not supported" }).optional(),
  }),
  response: z.object({ id: z.string() }),
  status: 201,
  scope: "account",
  role: "MANAGER",
  summary: "Create a knowledge box (account form)",
});
export const accountListKbs = route({
  method: "GET",
  path: "/api/v1/account/:account_id/kbs",
  params: AccountParams,
  query: z.object({
    /** kb (default) lists knowledge boxes; agent and agent_no_memory list those retrieval agents, agents both. */
    mode: z.enum(["kb", "agent", "agent_no_memory", "agents"]).optional(),
    include_search_configs: Bool.optional(),
  }),
  response: z.array(
    KbAccountRecord.omit({ account_id: true, created: true, admin: true, contrib: true }).extend({
      role_on_kb: z.string().nullable(),
      search_configs: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  // A key scoped to one knowledge box lists that box only.
  scope: "authenticated",
  role: "READER",
  summary: "List knowledge boxes (account form)",
});
export const accountGetKb = route({
  method: "GET",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  params: AccountKbParams,
  response: KbAccountRecord,
  role: "READER",
  summary: "Get a knowledge box (account form)",
});
export const accountUpdateKb = route({
  method: "PATCH",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  params: AccountKbParams,
  body: UpdateKb,
  response: z.object({}),
  role: "MANAGER",
  summary: "Modify a knowledge box (account form)",
});
export const accountDeleteKb = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  params: AccountKbParams,
  status: 204,
  role: "MANAGER",
  summary: "Delete a knowledge box (account form)",
});
