import { z } from "zod";
import { route } from "./route.js";

// Shapes of the hosted service (nuclia_models.config.proto: ExtractConfig, SplitConfiguration), served
// under the same paths as NucliaDB (/kb/{kbid}/extract_strategies, /kb/{kbid}/split_strategies).

/** The generative model an LLM-based option would call (stored; kbox runs no LLM step at ingestion). */
export const LLMConfig = z.looseObject({
  user_keys: z.unknown().optional(),
  generative_model: z.string().default(""),
  generative_provider: z.string().default(""),
  generative_prompt_id: z.string().default(""),
});

/** Visual-LLM extraction rules (stored, ignored locally). */
export const VLLMExtractionConfig = z.looseObject({
  rules: z.array(z.string()).default([]),
  llm: LLMConfig.nullable().optional(),
});

/** LLM table extraction (stored, ignored locally). */
export const AITables = z.looseObject({ llm: LLMConfig.nullable().optional() });

/** The hosted enum CustomSplitStrategy, by value (0, 1, 2) as the hosted service serves it, or by name. */
export const CUSTOM_SPLIT = { NONE: 0, MANUAL: 1, LLM: 2 } as const;
const CustomSplit = z
  .union([z.literal(0), z.literal(1), z.literal(2), z.enum(["NONE", "MANUAL", "LLM"])])
  .transform((v) => (typeof v === "string" ? CUSTOM_SPLIT[v] : v));

/** Largest accepted max_paragraph (characters). */
export const MAX_PARAGRAPH_LIMIT = 1_000_000;

/** How a field's text is cut into paragraphs. */
export const SplitConfiguration = z
  .object({
    name: z.string().max(250).default(""),
    /** Characters per paragraph at most; 0 is kbox's default. */
    max_paragraph: z.number().int().min(0).max(MAX_PARAGRAPH_LIMIT).default(0),
    custom_split: CustomSplit.nullable().optional(),
    llm_split: z
      .looseObject({ rules: z.array(z.string()).default([]), llm: LLMConfig.nullable().optional() })
      .nullable()
      .optional(),
    /** With custom_split MANUAL: the literal separator the text is split on. */
    manual_split: z
      .object({ splitter: z.string().max(1000).default("") })
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.custom_split === CUSTOM_SPLIT.MANUAL && !v.manual_split?.splitter) {
      ctx.addIssue({
        code: "custom",
        path: ["manual_split", "splitter"],
        message: "A MANUAL custom_split needs manual_split.splitter (the separator to split on)",
      });
    }
  });
export type SplitConfiguration = z.output<typeof SplitConfiguration>;

/** An extract strategy: how fields that name it are extracted and split. */
export const ExtractConfig = z.object({
  name: z.string().max(250).default(""),
  vllm_config: VLLMExtractionConfig.nullable().optional(),
  ai_tables: AITables.nullable().optional(),
  split: SplitConfiguration.nullable().optional(),
  max_parallel_llm_calls: z.number().int().min(0).default(0),
});
export type ExtractConfig = z.output<typeof ExtractConfig>;

const KbParams = z.object({ kbid: z.string() });
const OneParams = z.object({ kbid: z.string(), strategy_id: z.string().min(1).max(100) });

export const listExtractStrategies = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/extract_strategies",
  params: KbParams,
  response: z.record(z.string(), ExtractConfig),
  role: "READER",
  summary: "Every extract strategy of the knowledge box, by id",
});
export const addExtractStrategy = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/extract_strategies",
  params: KbParams,
  body: ExtractConfig,
  response: z.string(),
  role: "WRITER",
  summary: "Add an extract strategy; answers its id",
});
export const getExtractStrategy = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/extract_strategies/strategy/:strategy_id",
  params: OneParams,
  response: ExtractConfig,
  role: "READER",
  summary: "One extract strategy",
});
export const deleteExtractStrategy = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/extract_strategies/strategy/:strategy_id",
  params: OneParams,
  status: 204,
  role: "WRITER",
  summary: "Delete an extract strategy (409 while a field or sync configuration uses it)",
});

export const listSplitStrategies = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/split_strategies",
  params: KbParams,
  response: z.record(z.string(), SplitConfiguration),
  role: "READER",
  summary: "Every split strategy of the knowledge box, by id",
});
export const addSplitStrategy = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/split_strategies",
  params: KbParams,
  body: SplitConfiguration,
  response: z.string(),
  role: "WRITER",
  summary: "Add a split strategy; answers its id",
});
export const getSplitStrategy = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/split_strategies/strategy/:strategy_id",
  params: OneParams,
  response: SplitConfiguration,
  role: "READER",
  summary: "One split strategy",
});
export const deleteSplitStrategy = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/split_strategies/strategy/:strategy_id",
  params: OneParams,
  status: 204,
  role: "WRITER",
  summary: "Delete a split strategy (409 while a field uses it)",
});
