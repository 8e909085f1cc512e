import { z } from "zod";
import { FindBody } from "./find.js";
import { route } from "./route.js";

const Disabled = z.literal("disabled");
/** A high-level query (the upstream retrieval Query). */
const Query = z.strictObject({
  query: z.string().max(20_000),
  rephrase: z.union([z.boolean(), z.object({ prompt: z.string().min(1) })]).default(false),
  image: z.unknown().optional(),
  override: z
    .strictObject({
      keyword: z
        .union([z.strictObject({ min_score: z.number().nullable().optional(), with_synonyms: z.boolean().optional() }), Disabled])
        .nullable()
        .optional(),
      semantic: z
        .union([
          z.strictObject({
            vector: z.array(z.number()).min(1).nullable().optional(),
            vectorset: z.string().nullable().optional(),
            min_score: z.number().nullable().optional(),
          }),
          Disabled,
        ])
        .nullable()
        .optional(),
      graph: z
        .union([z.object({}).loose(), Disabled])
        .nullable()
        .optional(),
    })
    .optional(),
});
/** A low-level query with per-index options (the upstream RawQuery). */
const RawQuery = z.strictObject({
  keyword: z
    .strictObject({ query: z.string(), min_score: z.number().default(0), with_synonyms: z.boolean().default(false) })
    .nullable()
    .optional(),
  semantic: z
    .strictObject({ query: z.array(z.number()).min(1), vectorset: z.string(), min_score: z.number().default(-1) })
    .nullable()
    .optional(),
  graph: z.unknown().optional(),
});

/** The upstream RetrievalRequest: the retrieval half of ask. */
export const RetrievalRequest = z.strictObject({
  query: z.union([Query, RawQuery]),
  top_k: z.number().int().min(1).max(500).default(20),
  filters: z
    .strictObject({
      filter_expression: FindBody.shape.filter_expression,
      show_hidden: z.boolean().default(false),
      security: z.unknown().optional(),
      with_duplicates: z.boolean().default(false),
    })
    .default({ show_hidden: false, with_duplicates: false }),
  rank_fusion: FindBody.shape.rank_fusion,
  reranker: FindBody.shape.reranker.nullable(),
});
export type RetrievalRequest = z.infer<typeof RetrievalRequest>;

const ScoreSource = z.enum(["index", "rank_fusion", "reranker"]);
const ScoreType = z.enum(["semantic", "keyword", "graph", "rrf", "wCombSUM", "reranker"]);
const Score = z.object({ score: z.number(), source: ScoreSource, type: ScoreType });

/** The upstream RetrievalMatch: a paragraph id, how it scored, and what it is. */
export const RetrievalMatch = z.object({
  id: z.string(),
  score: z.object({ value: z.number(), source: ScoreSource, type: ScoreType, history: z.array(Score) }),
  metadata: z.object({
    field_labels: z.array(z.string()),
    paragraph_labels: z.array(z.string()),
    is_an_image: z.boolean(),
    is_a_table: z.boolean(),
    source_file: z.string().nullable(),
    page: z.number().int().nullable(),
    in_page_with_visual: z.boolean().nullable(),
  }),
});
export type RetrievalMatch = z.infer<typeof RetrievalMatch>;

export const retrieve = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/retrieve",
  params: z.object({ kbid: z.string() }),
  body: RetrievalRequest,
  response: z.object({ matches: z.array(RetrievalMatch) }),
  role: "READER",
  summary: "The retrieval half of ask: the best paragraph ids, scored, without building a context",
});

const Rid = z.string().regex(/^([0-9a-f]{32}|[0-9a-f-]{36})$/);
const FieldRef = z.string().regex(/^[0-9a-f]{32}\/[acftu]\/[^/]+(\/[^/]{1,128})?$/);
const ParagraphRef = z.string().regex(/^[0-9a-f]{32}\/[acftu]\/[^/]+(\/[^/]{1,128})?\/[0-9]+-[0-9]+$/);

/** The upstream AugmentRequest (the members kbox serves; others are accepted and ignored). */
export const AugmentRequest = z.object({
  resources: z
    .array(
      z
        .object({
          given: z.array(Rid),
          basic: z.boolean().default(false),
          origin: z.boolean().default(false),
          extra: z.boolean().default(false),
          relations: z.boolean().default(false),
          values: z.boolean().default(false),
          errors: z.boolean().default(false),
          security: z.boolean().default(false),
          title: z.boolean().default(false),
          summary: z.boolean().default(false),
          classification_labels: z.boolean().default(false),
        })
        .loose(),
    )
    .nullable()
    .optional(),
  fields: z
    .array(
      z
        .object({ given: z.array(FieldRef), text: z.boolean().default(false), classification_labels: z.boolean().default(false) })
        .loose(),
    )
    .nullable()
    .optional(),
  paragraphs: z
    .array(
      z
        .object({
          given: z.array(z.object({ id: ParagraphRef, metadata: z.unknown().optional() })),
          text: z.boolean().default(true),
          neighbours_before: z.number().int().min(0).max(50).default(0),
          neighbours_after: z.number().int().min(0).max(50).default(0),
        })
        .loose(),
    )
    .nullable()
    .optional(),
});
export type AugmentRequest = z.infer<typeof AugmentRequest>;

export const AugmentResponse = z.object({
  resources: z.record(z.string(), z.looseObject({ id: z.string() })),
  fields: z.record(
    z.string(),
    z.object({
      text: z.string().nullable().optional(),
      classification_labels: z.record(z.string(), z.array(z.string())).nullable().optional(),
    }),
  ),
  paragraphs: z.record(
    z.string(),
    z.object({
      text: z.string().nullable().optional(),
      neighbours_before: z.array(z.string()).nullable().optional(),
      neighbours_after: z.array(z.string()).nullable().optional(),
    }),
  ),
});
export type AugmentResponse = z.infer<typeof AugmentResponse>;

export const augment = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/augment",
  params: z.object({ kbid: z.string() }),
  body: AugmentRequest,
  response: AugmentResponse,
  role: "READER",
  summary: "The context-building half of ask: text, labels and neighbours of given resources, fields and paragraphs",
});
