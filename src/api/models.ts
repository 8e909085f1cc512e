import { z } from "zod";
import { HttpUrl } from "./common.js";
import { route } from "./route.js";

/** How an entry computes vectors: in-process ONNX, an OpenAI-compatible endpoint, or a zone's Predict Sentences. */
export const ModelProvider = z.enum(["onnx", "openai", "predict"]);

/** One usable model: installed in the cache, or a configured remote endpoint. */
export const ModelRecord = z.object({
  /** What to pass to `use`, `remove` and `semantic_models`: a hub id, or `openai:<name>` / `predict:<name>`. */
  name: z.string(),
  /** The embedder or reranker identity stored with vectors (e.g. `onnx:Xenova/bge-small-en-v1.5`). */
  id: z.string(),
  provider: ModelProvider,
  kind: z.enum(["embedder", "reranker"]),
  /** The vectorset name KBs using this model get. */
  vectorset: z.string(),
  /** 0 until a remote endpoint has answered once. */
  dim: z.number().int(),
  default: z.boolean(),
  size_bytes: z.number().int().optional(),
  pooling: z.string().optional(),
  query_prefix: z.string().optional(),
  passage_prefix: z.string().optional(),
  url: z.string().optional(),
  model: z.string().optional(),
  revision: z.string().optional(),
  installed_at: z.string().optional(),
  /** Knowledge boxes whose learning configuration names this model. */
  kbs: z.array(z.string()),
});
export type ModelRecord = z.infer<typeof ModelRecord>;

export const KnownModelRecord = z.object({
  id: z.string(),
  kind: z.enum(["embedder", "reranker"]),
  dim: z.number().int(),
  size_mb: z.number(),
  description: z.string(),
  installed: z.boolean(),
});

/** What the daemon can do with models right now; `keyword_only` when no embedder is usable. */
export const ModelsStatus = z.object({
  keyword_only: z.boolean(),
  default: z.string().nullable(),
  reranker: z.string().nullable(),
  /** A plain sentence for users: what works and what to do. */
  notice: z.string(),
  cache_dir: z.string(),
  hub: z.string(),
  /** Models named by some KB's learning configuration that are neither installed nor configured. */
  missing: z.array(z.object({ kb: z.string(), model: z.string() })),
});
export type ModelsStatus = z.infer<typeof ModelsStatus>;

export const ModelList = ModelsStatus.extend({
  models: z.array(ModelRecord),
  known: z.array(KnownModelRecord),
});
export type ModelList = z.infer<typeof ModelList>;

export const listModels = route({
  method: "GET",
  path: "/api/v1/kbox/models",
  response: ModelList,
  scope: "authenticated",
  role: "READER",
  summary: "Installed and configured models, the known ones, and whether semantic search is available",
});

export const PullModel = z.object({
  /** A hub repo id (`Xenova/bge-small-en-v1.5`) or a known short name (`bge-small-en-v1.5`). */
  id: z.string().min(1).max(200),
  revision: z.string().min(1).max(100).optional(),
  /** Hub base URL; the CLI sends its KBOX_HF_ENDPOINT. */
  endpoint: HttpUrl.optional(),
  /** Import from a local folder holding the repo's files instead of downloading. */
  from: z.string().optional(),
  dtype: z.enum(["q8", "fp32"]).optional(),
  kind: z.enum(["embedder", "reranker"]).optional(),
  pooling: z.enum(["cls", "mean"]).optional(),
  query_prefix: z.string().max(500).optional(),
  passage_prefix: z.string().max(500).optional(),
  /** Make it the default embedder (or reranker) once installed. */
  use: z.boolean().optional(),
});
export type PullModel = z.infer<typeof PullModel>;

/** One NDJSON line of a pull. */
export const PullEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("start"),
    id: z.string(),
    revision: z.string(),
    files: z.array(z.object({ path: z.string(), size: z.number().int().nullable() })),
    total_bytes: z.number().int(),
  }),
  z.object({
    type: z.literal("file"),
    path: z.string(),
    status: z.enum(["downloading", "resuming", "cached", "done"]),
    offset: z.number().int().optional(),
    size: z.number().int().nullable().optional(),
  }),
  z.object({
    type: z.literal("progress"),
    path: z.string(),
    file_bytes: z.number().int(),
    file_total: z.number().int().nullable(),
    bytes: z.number().int(),
    total_bytes: z.number().int(),
    rate: z.number(),
  }),
  z.object({ type: z.literal("done"), model: ModelRecord }),
  z.object({ type: z.literal("error"), detail: z.string() }),
]);
export type PullEvent = z.infer<typeof PullEvent>;

export const pullModel = route({
  method: "POST",
  path: "/api/v1/kbox/models/pull",
  body: PullModel,
  stream: "ndjson",
  response: PullEvent,
  // Models serve every knowledge box (and a pull fetches from a URL or reads a folder): account-wide keys only.
  scope: "account",
  role: "MANAGER",
  summary: "Download a model from the hub (or import a local folder) into the cache; streams progress as NDJSON",
});

export const RemoteModel = z.object({
  /** `openai:<name>` or `predict:<name>`. */
  name: z.string().regex(/^(openai|predict):[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "name must be openai:<name> or predict:<name>"),
  /** OpenAI-compatible: the base URL ending in /v1; predict: the zone URL. */
  url: HttpUrl,
  /** The model to request (OpenAI-compatible: required). */
  model: z.string().max(200).optional(),
  api_key: z.string().max(4000).optional(),
  /** Known dimension; else discovered by a probe call. */
  dim: z.number().int().positive().max(65536).optional(),
  query_prefix: z.string().max(500).optional(),
  passage_prefix: z.string().max(500).optional(),
  /** Probe the endpoint before saving (default true). */
  check: z.boolean().optional(),
});
export type RemoteModel = z.infer<typeof RemoteModel>;

export const addModel = route({
  method: "POST",
  path: "/api/v1/kbox/models",
  body: RemoteModel,
  response: ModelRecord,
  status: 201,
  scope: "account",
  role: "MANAGER",
  summary: "Configure a remote embedder (OpenAI-compatible /v1/embeddings or a zone's Predict Sentences)",
});

export const useModel = route({
  method: "POST",
  path: "/api/v1/kbox/models/use",
  body: z.object({ name: z.string().min(1).max(200) }),
  response: ModelsStatus,
  scope: "account",
  role: "MANAGER",
  summary: "Make a model the daemon's default embedder (or reranker, for a cross-encoder)",
});

export const removeModel = route({
  method: "DELETE",
  path: "/api/v1/kbox/models",
  query: z.object({ name: z.string().min(1).max(200), force: z.enum(["true", "false"]).optional() }),
  response: z.object({ removed: z.string() }),
  scope: "account",
  role: "MANAGER",
  summary: "Remove an installed model (or a remote entry); refused while a KB uses it unless force=true",
});
