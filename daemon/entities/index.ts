/** Named entities and their relations, found locally during ingestion (see docs/entities.md). */
export {
  type Analysis,
  analyse,
  type EntityGroupDef,
  type ExtractOptions,
  extractEntities,
  type FoundEntity,
  type FoundRelation,
  NLP_LABELS,
  type Span,
} from "./extract.js";
export {
  type EntityMetadata,
  type EntityUnit,
  entityFacet,
  type FieldEntities,
  fieldEntities,
  MAX_RELATIONS,
  PROCESSOR,
  type Relation,
  type RelationNode,
} from "./field.js";
