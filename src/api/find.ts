import { z } from "zod";
import { DateTime, FieldType, RequestSecurity } from "./common.js";
import { FilterExpression, LegacyFilter } from "./filters.js";
import { paramsToBody } from "./query-params.js";
import { Show } from "./resources.js";
import { route } from "./route.js";

export const FEATURES = ["keyword", "semantic", "relations", "fulltext", "paragraphs", "vectors"] as const;
export const RankFusion = z.union([
  z.literal("rrf"),
  z.strictObject({
    name: z.literal("rrf"),
    k: z.number().positive().default(60),
    window: z.number().int().min(1).max(500).optional(),
    boosting: z.strictObject({ keyword: z.number().min(0).default(1), semantic: z.number().min(0).default(1) }).optional(),
  }),
]);
export const Reranker = z.union([
  z.enum(["predict", "noop"]),
  z.strictObject({ name: z.enum(["predict", "noop"]), window: z.number().int().min(1).max(200).optional() }),
]);
export const MinScore = z.union([
  z.number(),
  z.strictObject({ semantic: z.number().nullable().optional(), bm25: z.number().min(0).default(0) }),
]);

/**
 * Members of a find request as sent: nothing defaulted, so that a stored search configuration can
 * fill what the request leaves out (the merge rule). Unknown top-level members are ignored.
 */
export const FindBody = z.object({
  query: z.string().max(20_000).optional(),
  filter_expression: FilterExpression.nullable().optional(),
  fields: z.array(z.string()).optional(),
  filters: z.array(LegacyFilter).optional(),
  /** Results per page; 0 is valid (no paragraphs: relations and facets only, as upstream). */
  top_k: z.number().int().min(0).max(200).optional(),
  page_number: z.number().int().min(0).optional(),
  min_score: MinScore.nullable().optional(),
  vectorset: z.string().nullable().optional(),
  range_creation_start: DateTime.nullable().optional(),
  range_creation_end: DateTime.nullable().optional(),
  range_modification_start: DateTime.nullable().optional(),
  range_modification_end: DateTime.nullable().optional(),
  features: z.array(z.enum(FEATURES)).optional(),
  debug: z.boolean().optional(),
  highlight: z.boolean().optional(),
  show: z.array(Show).optional(),
  field_type_filter: z.array(FieldType).optional(),
  extracted: z.array(z.string()).optional(),
  with_duplicates: z.boolean().optional(),
  with_synonyms: z.boolean().optional(),
  autofilter: z.boolean().optional(),
  resource_filters: z.array(z.string()).optional(),
  security: RequestSecurity.nullable().optional(),
  show_hidden: z.boolean().optional(),
  rank_fusion: RankFusion.optional(),
  reranker: Reranker.optional(),
  vector: z.array(z.number()).min(1).nullable().optional(),
  keyword_filters: z.array(z.union([z.string(), z.record(z.string(), z.unknown())])).optional(),
  search_configuration: z.string().nullable().optional(),
  generative_model: z.string().nullable().optional(),
  rephrase: z.boolean().optional(),
  rephrase_prompt: z.string().nullable().optional(),
  query_image: z.unknown().optional(),
  search_after: z.unknown().optional(),
});
export type FindBody = z.infer<typeof FindBody>;

export const ParagraphPosition = z.object({
  page_number: z.number().int(),
  index: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  start_seconds: z.array(z.number()),
  end_seconds: z.array(z.number()),
});
export const FindParagraph = z.object({
  score: z.number(),
  score_type: z.enum(["VECTOR", "BM25", "BOTH", "RERANKER", "RELATION_RELEVANCE"]),
  order: z.number().int(),
  text: z.string(),
  id: z.string(),
  labels: z.array(z.string()),
  position: ParagraphPosition,
  fuzzy_result: z.boolean(),
  page_with_visual: z.boolean(),
  reference: z.string().nullable(),
  is_a_table: z.boolean(),
  relevant_relations: z.unknown().nullable(),
});
export type FindParagraph = z.infer<typeof FindParagraph>;
export const FindResource = z.looseObject({
  id: z.string(),
  fields: z.record(z.string(), z.object({ paragraphs: z.record(z.string(), FindParagraph) })),
});
export const FindResponse = z.object({
  resources: z.record(z.string(), FindResource),
  relations: z.unknown().nullable(),
  query: z.string(),
  rephrased_query: z.string().nullable(),
  total: z.number().int(),
  page_number: z.number().int(),
  page_size: z.number().int(),
  next_page: z.boolean(),
  nodes: z.unknown().nullable(),
  shards: z.unknown().nullable(),
  autofilters: z.array(z.string()),
  min_score: z.object({ semantic: z.number().nullable(), bm25: z.number() }),
  best_matches: z.array(z.string()),
  metrics: z.unknown().nullable(),
  search_after: z.unknown().nullable(),
});
export type FindResponse = z.infer<typeof FindResponse>;

const KbOnly = z.object({ kbid: z.string() });

export const find = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/find",
  params: KbOnly,
  body: FindBody,
  response: FindResponse,
  role: "READER",
  summary: "Find paragraphs: keyword, semantic and hybrid retrieval with filters",
});

/** GET /find: the same request as query parameters (repeated keys for lists, JSON for objects). */
export const findGet = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/find",
  params: KbOnly,
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  body: FindBody,
  bodyKind: "query",
  fromQuery: findQueryToBody,
  response: FindResponse,
  role: "READER",
  summary: "Find paragraphs (query parameters)",
});

const LIST_KEYS = new Set([
  "fields",
  "filters",
  "features",
  "show",
  "field_type_filter",
  "field_type",
  "extracted",
  "resource_filters",
  "keyword_filters",
  "vector",
]);
const NUMBER_KEYS = new Set(["top_k", "page_number", "page_size", "min_score", "min_score_semantic", "min_score_bm25"]);
const BOOL_KEYS = new Set(["debug", "highlight", "with_duplicates", "with_synonyms", "autofilter", "show_hidden", "rephrase"]);

/** Turn query parameters into a find body (unparsed; FindBody validates it). */
export function findQueryToBody(q: Record<string, string | string[]>): Record<string, unknown> {
  const out = paramsToBody(q, {
    lists: LIST_KEYS,
    rename: { field_type: "field_type_filter" },
    list: (k, arr) => (k === "vector" ? arr.flatMap((x) => x.split(",")).map(Number) : arr),
    scalar: (k, one) => {
      if (NUMBER_KEYS.has(k)) return /^-?\d+(\.\d+)?$/.test(one) ? Number(one) : one;
      if (BOOL_KEYS.has(k)) return /^(true|1|yes)$/i.test(one) ? true : /^(false|0|no)$/i.test(one) ? false : one;
      return one;
    },
  });
  if (out.min_score_semantic !== undefined || out.min_score_bm25 !== undefined) {
    out.min_score = { semantic: out.min_score_semantic, bm25: out.min_score_bm25 ?? 0 };
    delete out.min_score_semantic;
    delete out.min_score_bm25;
  }
  if (out.page_size !== undefined && out.top_k === undefined) out.top_k = out.page_size;
  delete out.page_size;
  return out;
}
