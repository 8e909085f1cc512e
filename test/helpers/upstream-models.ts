/**
 * The upstream Python SDK's response models (nucliadb_models, Apache-2.0), restated as zod schemas from their
 * field lists: required members are required here, optional ones optional, unknown members ignored (pydantic's
 * default). A response that parses here is one the SDK's `model_validate` accepts. Written for kbox's tests,
 * not taken from the upstream code.
 */
import { z } from "zod";

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** vectors.SemanticModelMetadata */
export const SemanticModelMetadata = z.object({
  similarity_function: z.enum(["cosine", "dot"]),
  vector_dimension: opt(z.number().int()),
  default_min_score: opt(z.number()),
});

/** resource.KnowledgeBoxConfig (the members it validates). */
export const KnowledgeBoxConfig = z.object({
  slug: opt(z.string().regex(/^[^A-Z&@ /\\]*$/)),
  title: opt(z.string()),
  description: opt(z.string()),
  learning_configuration: opt(z.record(z.string(), z.unknown())),
  hidden_resources_enabled: z.boolean().optional(),
  hidden_resources_hide_on_creation: z.boolean().optional(),
});

/** resource.KnowledgeBoxObj */
export const KnowledgeBoxObj = z.object({
  slug: opt(z.string()),
  uuid: z.string(),
  config: opt(KnowledgeBoxConfig),
  model: opt(SemanticModelMetadata),
});

const LabelSetKind = z.enum(["RESOURCES", "PARAGRAPHS", "SENTENCES", "SELECTIONS"]);
/** labels.LabelSet */
export const LabelSet = z.object({
  title: opt(z.string()),
  color: opt(z.string()),
  multiple: z.boolean().optional(),
  kind: z.array(LabelSetKind).min(1).optional(),
  labels: z.array(z.object({ title: z.string(), related: opt(z.string()), text: opt(z.string()), uri: opt(z.string()) })),
});
/** labels.KnowledgeBoxLabels */
export const KnowledgeBoxLabels = z.object({ uuid: z.string(), labelsets: z.record(z.string(), LabelSet) });

/** conversation.Message */
export const Message = z.object({
  timestamp: opt(z.string()),
  who: opt(z.string()),
  to: opt(z.array(z.string())),
  content: z.object({ text: opt(z.string()), format: opt(z.string()) }),
  ident: opt(z.string()),
  type: opt(z.enum(["UNSET", "QUESTION", "ANSWER"])),
});

const Position = z.object({ start: z.number().int(), end: z.number().int() });
/** extracted.FieldMetadata */
export const FieldMetadata = z.object({
  links: z.array(z.string()),
  paragraphs: z.array(z.record(z.string(), z.unknown())),
  ner: z.record(z.string(), z.string()),
  entities: z.record(
    z.string(),
    z.object({ entities: z.array(z.object({ text: z.string(), label: z.string(), positions: z.array(Position) })) }),
  ),
  classifications: z.array(z.object({ labelset: z.string(), label: z.string() })),
  language: opt(z.string()),
  summary: opt(z.string()),
  positions: z.record(z.string(), z.object({ position: z.array(Position), entity: z.string() })),
  mime_type: opt(z.string()),
});
/** extracted.FieldComputedMetadata */
export const FieldComputedMetadata = z.object({
  metadata: FieldMetadata,
  split_metadata: opt(z.record(z.string(), FieldMetadata)),
  deleted_splits: opt(z.array(z.string())),
});

/** resource.Error */
export const FieldError = z.object({ body: z.string(), code: z.number().int(), code_str: z.string(), created: opt(z.string()) });

/** resource.ResourceField (the members a field GET answers). */
export const ResourceField = z.object({
  field_type: z.enum(["text", "file", "link", "conversation", "generic"]),
  field_id: z.string(),
  value: z.unknown().optional(),
  extracted: opt(
    z.object({
      text: opt(z.object({ text: opt(z.string()), split_text: opt(z.record(z.string(), z.string())) })),
      metadata: opt(FieldComputedMetadata),
    }),
  ),
  error: opt(FieldError),
});

/** The conversation value of a field GET: messages and the paging counters. */
export const ConversationPage = z.object({
  messages: z.array(Message),
  total: z.number().int(),
  pages: z.number().int(),
  page: z.number().int(),
});

/** search.DirectionalRelation */
export const DirectionalRelation = z.object({
  entity: z.string(),
  entity_type: z.enum(["entity", "label", "resource", "user"]),
  entity_subtype: z.string(),
  relation: z.enum(["ABOUT", "CHILD", "COLAB", "ENTITY", "OTHER", "SYNONYM"]),
  relation_label: z.string(),
  direction: z.enum(["in", "out"]),
  metadata: opt(z.record(z.string(), z.unknown())),
  resource_id: z.string(),
});
/** search.Relations */
export const Relations = z.object({ entities: z.record(z.string(), z.object({ related_to: z.array(DirectionalRelation) })) });

/** search.SyncAskResponse (the members the SDK requires, and relations). */
export const SyncAskResponse = z.object({
  answer: z.string(),
  status: z.string(),
  learning_id: z.string(),
  retrieval_results: z.object({ resources: z.record(z.string(), z.unknown()) }),
  relations: opt(Relations),
});

/** export_import.StatusResponse */
export const StatusResponse = z.object({
  status: z.enum(["scheduled", "running", "finished", "errored"]),
  total: z.number().int().optional(),
  processed: z.number().int().optional(),
  retries: z.number().int().optional(),
});

const ScoreSource = z.enum(["index", "rank_fusion", "reranker"]);
const ScoreType = z.enum(["semantic", "keyword", "graph", "rrf", "wCombSUM", "reranker"]);
/** retrieval.RetrievalResponse (every model of it forbids unknown members). */
export const RetrievalResponse = z.strictObject({
  matches: z.array(
    z.strictObject({
      id: z.string(),
      score: z.strictObject({
        value: z.number(),
        source: ScoreSource,
        type: ScoreType,
        history: z.array(z.strictObject({ score: z.number(), source: ScoreSource, type: ScoreType })),
      }),
      metadata: z.strictObject({
        field_labels: z.array(z.string()),
        paragraph_labels: z.array(z.string()),
        is_an_image: z.boolean(),
        is_a_table: z.boolean(),
        source_file: z.string().nullable(),
        page: z.number().int().nullable(),
        in_page_with_visual: z.boolean().nullable(),
      }),
    }),
  ),
});

/** augment.AugmentResponse */
export const AugmentResponse = z.object({
  resources: z.record(
    z.string(),
    z.object({ id: z.string(), title: opt(z.string()), classification_labels: opt(z.record(z.string(), z.array(z.string()))) }),
  ),
  fields: z.record(
    z.string(),
    z.object({ text: opt(z.string()), classification_labels: opt(z.record(z.string(), z.array(z.string()))) }),
  ),
  paragraphs: z.record(
    z.string(),
    z.object({ text: opt(z.string()), neighbours_before: opt(z.array(z.string())), neighbours_after: opt(z.array(z.string())) }),
  ),
});

const UpEntity = z.object({ value: z.string(), merged: z.boolean().optional(), represents: z.array(z.string()).optional() });
/** entities.KnowledgeBoxEntities */
export const KnowledgeBoxEntities = z.object({
  uuid: z.string(),
  groups: z.record(z.string(), z.object({ title: opt(z.string()), color: opt(z.string()), custom: z.boolean().optional() })),
});
/** entities.EntitiesGroup */
export const EntitiesGroup = z.object({
  title: opt(z.string()),
  color: opt(z.string()),
  custom: z.boolean().optional(),
  entities: z.record(z.string(), UpEntity),
});

const RelationNodeType = z.enum(["entity", "label", "resource", "user"]);
/** graph.responses.GraphNode */
export const GraphNode = z.object({ value: z.string(), type: RelationNodeType, group: z.string() });
/** graph.responses.GraphRelation */
export const GraphRelation = z.object({
  label: z.string(),
  type: z.enum(["CHILD", "ABOUT", "ENTITY", "COLAB", "SYNONYM", "OTHER"]),
});
/** graph.responses.GraphSearchResponse */
export const GraphSearchResponse = z.object({
  paths: z.array(z.object({ source: GraphNode, relation: GraphRelation, destination: GraphNode })),
});
/** graph.responses.GraphNodesSearchResponse */
export const GraphNodesSearchResponse = z.object({ nodes: z.array(GraphNode) });
/** graph.responses.GraphRelationsSearchResponse */
export const GraphRelationsSearchResponse = z.object({ relations: z.array(GraphRelation) });
