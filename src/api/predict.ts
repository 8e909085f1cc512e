import { z } from "zod";
import { AnswerJsonSchema, ChatMessage } from "./ask.js";
import { HeaderFlag } from "./common.js";
import { route } from "./route.js";

/** A tool call as a model made it (OpenAI's shape; `arguments` is JSON text). */
export const ToolCall = z.object({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
/** Predict Chat's history turns: a message, an assistant turn with tool calls, or a tool's result. */
export const PredictChatTurn = z.union([
  z.object({ type: z.literal("tool"), tool_call_id: z.string(), name: z.string().nullable().optional(), content: z.string() }),
  z.object({
    type: z.literal("assistant"),
    text: z.string().nullable().optional(),
    content: z.string().nullable().optional(),
    tool_calls: z.array(ToolCall).default([]),
  }),
  ChatMessage,
]);
export type PredictChatTurn = z.infer<typeof PredictChatTurn>;
/** A tool the model may call. */
export const PredictTool = z.object({
  name: z.string().min(1).max(64),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
});
export const PredictToolChoice = z
  .object({ type: z.enum(["auto", "none", "required", "forced"]), name: z.string().nullable().optional() })
  .refine((c) => c.type !== "forced" || !!c.name, { message: "A forced tool choice names the tool", path: ["name"] });

/** Predict Chat body (the understanding API's chat over a given context). */
export const PredictChatBody = z.object({
  question: z.string().max(20_000),
  retrieval: z.boolean().optional(),
  user_id: z.string().optional(),
  system: z.string().nullable().optional(),
  chat_history: z.array(PredictChatTurn).optional(),
  context: z.array(PredictChatTurn).optional(),
  query_context: z.union([z.array(z.string()), z.record(z.string(), z.string())]).optional(),
  query_context_order: z.record(z.string(), z.number()).optional(),
  truncate: z.boolean().optional(),
  user_prompt: z.object({ prompt: z.string() }).nullable().optional(),
  citations: z
    .union([z.boolean(), z.enum(["default", "llm_footnotes", "none"])])
    .nullable()
    .optional(),
  citation_threshold: z.number().min(0).max(1).nullable().optional(),
  generative_model: z.string().nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  prefer_markdown: z.boolean().nullable().optional(),
  json_schema: AnswerJsonSchema.nullable().optional(),
  format_prompt: z.boolean().optional(),
  rerank_context: z.boolean().optional(),
  seed: z.number().int().nullable().optional(),
  reasoning: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
  tools: z.array(PredictTool).max(128).nullable().optional(),
  tool_choice: PredictToolChoice.nullable().optional(),
});
export type PredictChatBody = z.infer<typeof PredictChatBody>;

const ModelQuery = z.object({ model: z.string().optional() });
const KbParams = z.object({ kbid: z.string() });

/** The understanding API touches no knowledge box unless its path names one: any caller may use it. */
const anyCaller = { scope: "authenticated", role: "READER" } as const;
/** The same route with a knowledge box's models (`/:kbid`). */
const ofKb = { params: KbParams, scope: "kb" } as const;

export const predictChat = route({
  method: "POST",
  path: "/api/v1/predict/chat",
  query: ModelQuery,
  headers: z.object({ "x-synchronous": HeaderFlag }),
  body: PredictChatBody,
  // NDJSON `{"chunk": {...}}` lines; a failure after the start is a status chunk with code -1.
  stream: "ndjson",
  streamError: (details: string) => ({ chunk: { type: "status", code: "-1", details } }),
  ...anyCaller,
  summary: "Predict Chat: answer a question over the given context (NDJSON chunks; x-synchronous for JSON)",
});
export const predictChatKb = route({
  ...predictChat,
  path: "/api/v1/predict/chat/:kbid",
  ...ofKb,
  summary: "Predict Chat with a knowledge box's model",
});

/** OpenAI-compatible chat completions; extra members are accepted and ignored. */
export const ChatCompletionBody = z.looseObject({
  messages: z
    .array(
      z.looseObject({
        role: z.string(),
        content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() })), z.null()]),
      }),
    )
    .min(1),
  model: z.string().optional(),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  response_format: z
    .looseObject({
      type: z.string(),
      json_schema: z
        .looseObject({
          name: z.string(),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
        })
        .optional(),
    })
    .nullable()
    .optional(),
  json_schema: z.record(z.string(), z.unknown()).nullable().optional(),
  reasoning_effort: z.string().nullable().optional(),
  tools: z
    .array(
      z.looseObject({
        type: z.string().default("function"),
        function: z.looseObject({
          name: z.string().min(1),
          description: z.string().nullable().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .nullable()
    .optional(),
  tool_choice: z
    .union([z.enum(["auto", "none", "required"]), z.looseObject({ type: z.string(), function: z.object({ name: z.string() }) })])
    .nullable()
    .optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

export const chatCompletions = route({
  method: "POST",
  path: "/api/v1/predict/chat/completions",
  headers: z.object({
    "x-understanding-max-output-tokens": z.coerce.number().int().min(1).optional().catch(undefined),
    "x-nua-max-output-tokens": z.coerce.number().int().min(1).optional().catch(undefined),
  }),
  body: ChatCompletionBody,
  // Server-sent `chat.completion.chunk` events ending with `[DONE]` when the body asks `stream: true`.
  stream: "sse",
  streamError: (message: string) => ({ error: { message, type: "generation_error" } }),
  sseDone: "[DONE]",
  ...anyCaller,
  summary: "Chat Completions (OpenAI-compatible, streaming with stream: true)",
});
export const openaiChatCompletions = route({ ...chatCompletions, path: "/v1/chat/completions" });

export const SentencesBody = z
  .object({ input: z.union([z.string(), z.array(z.string()).min(1)]), model: z.string().nullable().optional() })
  .loose();
export const SentencesResponse = z.object({
  object: z.literal("list"),
  data: z.array(z.object({ object: z.literal("embedding"), embedding: z.array(z.number()), index: z.number().int() })),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});

export const predictSentences = route({
  method: "POST",
  path: "/api/v1/predict/sentences",
  body: SentencesBody,
  response: SentencesResponse,
  ...anyCaller,
  summary: "Predict Sentences: embeddings with the daemon's default (or named) embedder",
});
export const predictSentencesKb = route({
  ...predictSentences,
  path: "/api/v1/predict/sentences/:kbid",
  ...ofKb,
  summary: "Predict Sentences with a knowledge box's embedder",
});
export const openaiEmbeddings = route({ ...predictSentences, path: "/v1/embeddings", summary: "Embeddings (OpenAI-compatible)" });

export const PredictQueryBody = z
  .object({
    text: z.string().nullable().optional(),
    rephrase: z.boolean().optional(),
    rephrase_prompt: z.string().nullable().optional(),
    generative_model: z.string().nullable().optional(),
    semantic_models: z.array(z.string()).nullable().optional(),
    semantic_model: z.string().nullable().optional(),
    token_model: z.string().nullable().optional(),
  })
  .loose();

export const predictQuery = route({
  method: "POST",
  path: "/api/v1/predict/query",
  body: PredictQueryBody,
  ...anyCaller,
  summary: "Predict Query: query analysis",
});
export const predictQueryKb = route({
  ...predictQuery,
  path: "/api/v1/predict/query/:kbid",
  ...ofKb,
  summary: "Predict Query for a knowledge box",
});
export const predictQueryGet = route({
  method: "GET",
  path: "/api/v1/predict/query",
  query: z
    .object({ text: z.string().optional(), rephrase: z.string().optional(), semantic_model: z.string().optional() })
    .loose(),
  ...anyCaller,
  summary: "Predict Query (deprecated GET form)",
});

export const ModelInfo = z.object({
  id: z.string(),
  name: z.string(),
  created: z.number().int(),
  title: z.string(),
  description: z.string(),
  model_type: z.enum(["GENERATIVE", "EMBEDDING"]),
  max_input_tokens: z.number().int(),
  max_output_tokens: z.number().int(),
});
export const listModels = route({
  method: "GET",
  path: "/api/v1/predict/models",
  response: z.object({
    object: z.literal("list"),
    data: z.array(ModelInfo.extend({ object: z.literal("model"), owned_by: z.string() })),
    has_more: z.boolean(),
  }),
  ...anyCaller,
  summary: "List the models this daemon can run",
});
export const openaiModels = route({ ...listModels, path: "/v1/models" });
export const getModel = route({
  method: "GET",
  path: "/api/v1/predict/models/:model_id",
  params: z.object({ model_id: z.string() }),
  response: ModelInfo,
  ...anyCaller,
  summary: "Get one model",
});

/** The hosted service's `/predict/compat/*` paths of the OpenAI-compatible operations (zone-api.md §2c). */
export const compatChatCompletions = route({ ...chatCompletions, path: "/api/v1/predict/compat/chat/completions" });
export const compatEmbeddings = route({ ...predictSentences, path: "/api/v1/predict/compat/embeddings" });
export const compatModels = route({ ...listModels, path: "/api/v1/predict/compat/models" });
export const compatModel = route({ ...getModel, path: "/api/v1/predict/compat/models/:model_id" });
