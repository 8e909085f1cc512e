import { z } from "zod";
import { HeaderFlag } from "./common.js";
import { FindBody, type FindResponse } from "./find.js";
import { route } from "./route.js";

const Count = z.number().int().min(1).max(1000);
const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** Context strategies of an ask (wire.md names). */
export const RagStrategy = z.discriminatedUnion("name", [
  z.object({ name: z.literal("full_resource"), count: nullable(Count), include_remaining_text_blocks: z.boolean().optional() }),
  z.object({
    name: z.literal("field_extension"),
    fields: z.array(z.string().regex(/^[a-z]\/[^/]+$/, "Field must look like t/body or a/title")).default([]),
  }),
  z.object({ name: z.literal("hierarchy"), count: z.number().int().min(0).max(1000).default(0) }),
  z.object({
    name: z.literal("neighbouring_paragraphs"),
    before: z.number().int().min(0).max(50).default(2),
    after: z.number().int().min(0).max(50).default(2),
  }),
  z.object({
    name: z.literal("metadata_extension"),
    types: z.array(z.enum(["origin", "classification_labels", "ners", "extra_metadata"])).min(1),
  }),
  z.object({
    name: z.literal("conversation"),
    full: z.boolean().default(false),
    max_messages: z.number().int().min(1).max(1000).default(15),
    attachments_text: z.boolean().optional(),
    attachments_images: z.boolean().optional(),
  }),
  z.object({
    name: z.literal("prequeries"),
    queries: z
      .array(
        z.object({
          request: FindBody.extend({ query: z.string().max(20_000) }).loose(),
          weight: z.number().min(0).default(1),
          id: z.string().nullable().optional(),
          prefilter: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(15),
    main_query_weight: z.number().min(0).default(1),
  }),
]);
export type RagStrategy = z.infer<typeof RagStrategy>;

export const ChatMessage = z.object({
  author: z.enum(["USER", "NUCLIA"]),
  text: z.string(),
  type: z.string().nullable().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const CustomPrompt = z.union([
  z.string(),
  z.object({ system: nullable(z.string()), user: nullable(z.string()), rephrase: nullable(z.string()) }),
]);

const NamedJsonSchema = z.object({
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()),
});

/**
 * The answer's JSON schema: named (`{name, description, parameters}`, as OpenAI tools), or a plain JSON schema
 * object (the upstream Python SDK's free dict), named by its `title` (else "answer").
 */
export const AnswerJsonSchema = z.union([
  NamedJsonSchema,
  z
    .record(z.string(), z.unknown())
    .refine((o) => Object.keys(o).length > 0, "A JSON schema object is required")
    .transform((o) => ({
      name: typeof o.title === "string" && o.title ? o.title : "answer",
      description: typeof o.description === "string" ? o.description : null,
      parameters: o,
    })),
]);

/** The ask body: every find member for retrieval, plus what builds the context and shapes the answer. */
export const AskBody = FindBody.extend({
  query: z.string().max(20_000),
  audit_metadata: nullable(z.record(z.string(), z.string())),
  agentic_config_id: nullable(z.string()),
  context: nullable(z.array(ChatMessage)),
  chat_history: nullable(z.array(ChatMessage)),
  extra_context: nullable(z.array(z.string())),
  extra_context_images: nullable(z.array(z.unknown())),
  prompt: nullable(CustomPrompt),
  citations: nullable(z.union([z.boolean(), z.enum(["default", "llm_footnotes", "none"])])),
  citation_threshold: nullable(z.number().min(0).max(1)),
  rag_strategies: z.array(RagStrategy).optional(),
  rag_images_strategies: z.array(z.unknown()).optional(),
  generative_model_seed: nullable(z.number().int()),
  max_tokens: nullable(
    z.union([
      z.number().int().min(1),
      z.object({ context: nullable(z.number().int().min(1)), answer: nullable(z.number().int().min(1)) }),
    ]),
  ),
  chat_history_relevance_threshold: nullable(z.number().min(0).max(1)),
  prefer_markdown: z.boolean().optional(),
  answer_json_schema: nullable(AnswerJsonSchema),
  generate_answer: z.boolean().optional(),
  reasoning: z
    .union([
      z.boolean(),
      z
        .object({ display: z.boolean().optional(), effort: z.string().optional(), budget_tokens: z.number().int().optional() })
        .loose(),
    ])
    .optional(),
});
export type AskBody = z.infer<typeof AskBody>;

const KbParams = z.object({ kbid: z.string() });

/** Header names of the ask routes. */
export const ASK_HEADERS = {
  synchronous: "x-synchronous",
  showConsumption: "x-show-consumption",
  learningId: "NUCLIA-LEARNING-ID",
} as const;

const AskHeaders = z.object({ [ASK_HEADERS.synchronous]: HeaderFlag, [ASK_HEADERS.showConsumption]: HeaderFlag });

/** What the ask routes share: NDJSON lines `{"item": AskItem}` (one JSON document with x-synchronous). */
const askStream = {
  headers: AskHeaders,
  body: AskBody,
  stream: "ndjson",
  streamError: (error: string) => ({ item: { type: "error", error } }),
} as const;

export const askKb = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/ask",
  params: KbParams,
  ...askStream,
  role: "READER",
  summary: "Ask: retrieve, generate and stream an answer with citations (x-synchronous: true for one JSON document)",
});
export const askResource = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/resource/:rid/ask",
  params: KbParams.extend({ rid: z.string() }),
  ...askStream,
  role: "READER",
  summary: "Ask about one resource",
});
export const askSlug = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/slug/:slug/ask",
  params: KbParams.extend({ slug: z.string() }),
  ...askStream,
  role: "READER",
  summary: "Ask about one resource, named by slug",
});

export const STATUS_CODES = { success: "0", error: "-1", no_context: "-2", no_retrieval_data: "-3" } as const;
export type AskStatus = keyof typeof STATUS_CODES;

/** One line of the ask stream: `{"item": AskItem}`. */
export type AskItem =
  | { type: "answer"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "answer_json"; object: Record<string, unknown> }
  | { type: "retrieval"; results: FindResponse; best_matches: { id: string }[] }
  | { type: "prequeries"; results: Record<string, FindResponse> }
  | { type: "status"; code: string; status: AskStatus; details?: string }
  | { type: "augmented_context"; augmented: { paragraphs: Record<string, AugmentedText>; fields: Record<string, AugmentedText> } }
  | { type: "citations"; citations: Record<string, [number, number][]> }
  | { type: "footnote_citations"; footnote_to_context: Record<string, string> }
  | {
      type: "metadata";
      tokens: { input: number; output: number; input_nuclia?: number; output_nuclia?: number };
      timings: Record<string, number>;
      generator?: { model: string; kind: string; extractive: boolean };
    }
  | {
      type: "consumption";
      normalized_tokens: { input: number; output: number; image: number };
      customer_key_tokens: { input: number; output: number; image: number };
    }
  | { type: "relations"; relations: unknown }
  | { type: "debug"; metadata: Record<string, unknown> }
  | { type: "error"; error: string };

/** Text the context strategies added, keyed by paragraph or field id. */
export interface AugmentedText {
  id: string;
  text: string;
  parent?: string | null;
  augmentation_type: string;
}

/** The synchronous ask response. */
export const SyncAskResponse = z.looseObject({
  answer: z.string(),
  reasoning: z.string().nullable().optional(),
  answer_json: z.record(z.string(), z.unknown()).nullable().optional(),
  status: z.enum(["success", "error", "no_context", "no_retrieval_data"]),
  retrieval_results: z.unknown(),
  retrieval_best_matches: z.array(z.object({ id: z.string() })),
  prequeries: z.record(z.string(), z.unknown()).nullable().optional(),
  learning_id: z.string(),
  relations: z.unknown().optional(),
  citations: z.record(z.string(), z.array(z.tuple([z.number(), z.number()]))),
  citation_footnote_to_context: z.record(z.string(), z.string()),
  augmented_context: z.unknown(),
  metadata: z.looseObject({ tokens: z.unknown(), timings: z.unknown() }),
  consumption: z.unknown().optional(),
  error_details: z.string().nullable().optional(),
});
export type SyncAskResponse = z.infer<typeof SyncAskResponse>;
