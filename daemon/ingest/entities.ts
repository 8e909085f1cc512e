/**
 * Entities during ingestion: each paragraph of a processed field is read by daemon/entities (the NLP
 * families and the box's entities groups); the field's extracted metadata gets `ner`, `entities` and
 * `positions`, its paragraph rows `/e/{label}/{text}` facets, and the outcome the field's relations,
 * which the resource record keeps by field (`field_relations`, served as the resource's `relations`).
 */

import { FIELD_LETTER } from "../../src/api/common.js";
import { type EntityGroupDef, type EntityMetadata, type FieldEntities, fieldEntities, type Relation } from "../entities/index.js";
import type { FieldDoc, ResourceDoc } from "../store/index.js";
import { paragraphId } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import type { FieldOutcome } from "./process-field.js";

/** Time spent and paragraphs read, since the daemon started (for the cost per paragraph). */
export const entityCost = { paragraphs: 0, ms: 0 };

function merge(target: unknown, add: EntityMetadata & { relations?: Relation[] }): void {
  if (target && typeof target === "object") Object.assign(target, add);
}

/**
 * Read the entities of a processed field: fills the outcome's extracted metadata and relations, and
 * sets `outcome.facets` (the `/e/{label}/{text}` facets by paragraph id). Pure: runs on the field
 * thread (field-threads.ts) or on the daemon's.
 */
export function findEntities(rid: string, doc: FieldDoc, outcome: FieldOutcome, groups: EntityGroupDef[]): void {
  const key = `${FIELD_LETTER[doc.type]}/${doc.id}` as const;
  let found: FieldEntities;
  try {
    found = fieldEntities(outcome.units, groups, rid, (split, start, end) => paragraphId(rid, key, split, start, end));
  } catch {
    return; // entities are an extra: text the tagger cannot read leaves the field without them
  }
  const meta = (outcome.extracted?.metadata ?? {}) as { metadata?: unknown; split_metadata?: Record<string, unknown> };
  // FieldMetadata.relations: the relations found in the field, beside the resource's copy.
  merge(meta.metadata, { ...found.metadata, relations: found.relations });
  for (const [split, m] of Object.entries(found.split_metadata)) merge(meta.split_metadata?.[split], m);
  outcome.relations = found.relations;
  outcome.facets = Object.fromEntries(found.facets);
  outcome.entityCost = { paragraphs: found.paragraphs, ms: found.ms };
}

/**
 * The entities of a processed field on its rows: the entity facets findEntities gave the outcome (with
 * its extraction: see analyse-field.ts) added to the rows, between building and embedding them.
 */
export function annotateEntities(outcome: FieldOutcome, rows: ParagraphRow[]): void {
  if (outcome.entityCost) {
    entityCost.paragraphs += outcome.entityCost.paragraphs;
    entityCost.ms += outcome.entityCost.ms;
    delete outcome.entityCost;
  }
  for (const row of rows) {
    const facets = outcome.facets?.[row.id];
    if (facets) row.facets = [...row.facets, ...facets];
  }
  delete outcome.facets;
}

/** Keep the relations of the fields just processed on the resource record, and drop those of removed fields. */
export function applyRelations(res: ResourceDoc, results: { key: string; outcome: FieldOutcome }[]): void {
  // Object.assign, not spread: a spread copy given keys after gets a hidden class of its own.
  const by = Object.assign({}, res.field_relations) as Record<string, Relation[]>;
  for (const r of results) {
    // A copy of the exact size: the outcome's list, grown by push, keeps room for 17 (kept per resource).
    if (r.outcome.relations?.length) by[r.key] = r.outcome.relations.slice();
    else delete by[r.key];
  }
  for (const k of Object.keys(by)) if (!res.fields[k]) delete by[k];
  if (Object.keys(by).length) res.field_relations = by;
  else delete res.field_relations;
}
