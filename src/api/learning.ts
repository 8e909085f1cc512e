import { z } from "zod";
import { route } from "./route.js";

/** Path parameter kbid (not imported from kbs.ts: kbs.ts imports this file). */
const Params = z.object({ kbid: z.string() });

const ModelName = z.string().trim().min(1).max(500);

/** Provider settings: `{openai: {url, key}, predict: {url, key}}`; secrets are masked when read back. */
const UserKeys = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * What an update of the learning configuration accepts (PATCH merges, POST replaces).
 * Absent: unchanged; null: back to the default. Unknown members are refused (422).
 */
export const LearningConfigUpdate = z.strictObject({
  /** Deprecated: one semantic model. */
  semantic_model: ModelName.optional(),
  semantic_models: z.array(ModelName).min(1).max(8).optional(),
  default_semantic_model: ModelName.optional(),
  generative_model: ModelName.nullable().optional(),
  user_keys: UserKeys.nullable().optional(),
  user_prompts: z.record(z.string(), z.unknown()).nullable().optional(),
  summary: z.string().max(100).nullable().optional(),
  summary_model: ModelName.nullable().optional(),
  summary_prompt: z
    .union([z.string().max(100_000), z.record(z.string(), z.unknown())])
    .nullable()
    .optional(),
  prefer_markdown_generative_response: z.boolean().nullable().optional(),
  anonymization_model: z.string().max(200).nullable().optional(),
  visual_labeling: z.string().max(200).nullable().optional(),
  ner_model: z.string().max(200).nullable().optional(),
  relation_model: z.string().max(200).nullable().optional(),
});
export type LearningConfigUpdate = z.infer<typeof LearningConfigUpdate>;

/** One vectorset of a knowledge box: the model filling it, and how many paragraphs have a vector in it. */
export const VectorsetInfo = z.object({
  id: z.string(),
  model: z.string(),
  /** 0 when unknown (an endpoint not called yet, a model not installed). */
  dim: z.number().int(),
  default: z.boolean(),
  /** Installed (ONNX) or configured (endpoint) on this daemon. */
  installed: z.boolean(),
  /** Paragraphs holding a vector of this set (served by the configuration route only). */
  vectors: z.number().int().optional(),
});
export type VectorsetInfo = z.infer<typeof VectorsetInfo>;

const SemanticModelConfig = z.object({
  similarity: z.string(),
  size: z.number().int(),
  threshold: z.number().nullable(),
  matryoshka_dims: z.array(z.number().int()),
});

/** The knowledge box's effective model configuration (the spec's model configuration record, plus kbox members). */
export const ModelConfiguration = z.object({
  semantic_model: z.string().nullable(),
  semantic_models: z.array(z.string()),
  default_semantic_model: z.string().nullable(),
  semantic_vector_size: z.number().int().nullable(),
  semantic_vector_similarity: z.string().nullable(),
  semantic_matryoshka_dims: z.array(z.number().int()),
  semantic_threshold: z.number().nullable(),
  semantic_model_configs: z.record(z.string(), SemanticModelConfig),
  generative_model: z.string(),
  user_keys: UserKeys.nullable(),
  user_prompts: z.record(z.string(), z.unknown()).nullable(),
  summary: z.string(),
  summary_model: z.string().nullable(),
  summary_prompt: z.unknown().nullable(),
  prefer_markdown_generative_response: z.boolean(),
  anonymization_model: z.string(),
  visual_labeling: z.string(),
  ner_model: z.string().nullable(),
  relation_model: z.string().nullable(),
  resource_labelers_models: z.array(z.string()),
  paragraph_labelers_models: z.array(z.string()),
  intent_models: z.array(z.string()),
  /** kbox: whether queries use vectors, said plainly. */
  semantic_search: z.enum(["active", "keyword_only"]),
  /** kbox: what is missing and what to do, for people; null when all is well. */
  notice: z.string().nullable(),
  /** kbox: where generative_model comes from: this knowledge box, or the daemon default. */
  generative_model_source: z.enum(["knowledge_box", "daemon"]),
  vectorsets: z.array(VectorsetInfo),
});
export type ModelConfiguration = z.infer<typeof ModelConfiguration>;

/** One model a knowledge box may use. */
export const AvailableModel = z.object({
  /** What to write in the configuration (a template such as `openai:<model>` when `template`). */
  name: z.string(),
  type: z.enum(["semantic", "generative"]),
  description: z.string(),
  installed: z.boolean(),
  /** In use by this knowledge box. */
  in_use: z.boolean(),
  dim: z.number().int().optional(),
  template: z.boolean().optional(),
});
export type AvailableModel = z.infer<typeof AvailableModel>;

export const AvailableModels = z.object({
  /** Models grouped by provider: onnx, openai, predict, extractive, gguf. */
  providers: z.record(z.string(), z.array(AvailableModel)),
});
export type AvailableModels = z.infer<typeof AvailableModels>;

const path = "/api/v1/kb/:kbid/configuration";

export const getConfiguration = route({
  method: "GET",
  path,
  params: Params,
  response: ModelConfiguration,
  role: "READER",
  summary: "The knowledge box's effective model configuration, and whether semantic search is active",
});

export const patchConfiguration = route({
  method: "PATCH",
  path,
  params: Params,
  body: LearningConfigUpdate,
  response: ModelConfiguration,
  role: "OWNER",
  summary: "Change members of the model configuration (null resets a member to its default)",
});

export const setConfiguration = route({
  method: "POST",
  path,
  params: Params,
  body: LearningConfigUpdate,
  response: ModelConfiguration,
  role: "OWNER",
  summary: "Replace the model configuration (semantic models are kept unless given)",
});

export const deleteConfiguration = route({
  method: "DELETE",
  path,
  params: Params,
  response: ModelConfiguration,
  role: "OWNER",
  summary: "Reset the model configuration to the defaults, keeping the semantic models",
});

export const availableModels = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/models",
  params: Params,
  response: AvailableModels,
  role: "READER",
  summary: "Models this knowledge box can use, grouped by provider",
});

export const configurationSchema = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/schema",
  params: Params,
  response: z.record(z.string(), z.unknown()),
  role: "READER",
  summary: "JSON schema of the model configuration members an update accepts",
});

/** The JSON schema of LearningConfigUpdate (the daemon adds the available models as examples). */
export function learningConfigJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(LearningConfigUpdate, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
