/**
 * Entities during ingestion: each paragraph of a processed field is read by daemon/entities (the NLP
 * families and the box's entities groups); the field's extracted metadata gets `ner`, `entities` and
 * `positions`, its paragraph rows `/e/{label}/{text}` facets, and the outcome the field's relations,
 * which the resource record keeps by field (`field_relations`, served as the resource's `relations`).
 */

import { FIELD_LETTER } from "../../src/api/common.js";
import { type EntityGroupDef, type EntityMetadata, type FieldEntities, fieldEntities, type Relation } from "../entities/index.js";
import { docTableOf } from "../kbs/kb-docs.js";
import type { FieldDoc, KbStore, ResourceDoc } from "../store/index.js";
import { paragraphId } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import type { FieldOutcome } from "./process-field.js";

/** Where the user's entities groups are stored (daemon/kbs/entities.ts). */
const GROUPS_TABLE = "entities_groups";

/** Time spent and paragraphs read, since the daemon started (for the cost per paragraph). */
export const entityCost = { paragraphs: 0, ms: 0 };

/** The entities groups of a box as matching needs them. */
export async function entityGroups(store: KbStore): Promise<EntityGroupDef[]> {
  const t = await docTableOf<EntityGroupDef>(store, GROUPS_TABLE);
  return [...t.values()].map((g) => ({ id: g.id, entities: g.entities ?? {} }));
}

function merge(target: unknown, add: EntityMetadata): void {
  if (target && typeof target === "object") Object.assign(target, add);
}

/**
 * Read the entities of a processed field: fills the outcome's extracted metadata and relations, and
 * adds the entity facets to the field's rows (called once, between building and embedding the rows).
 */
export async function annotateEntities(
  store: KbStore,
  res: ResourceDoc,
  doc: FieldDoc,
  outcome: FieldOutcome,
  rows: ParagraphRow[],
): Promise<void> {
  const key = `${FIELD_LETTER[doc.type]}/${doc.id}` as const;
  let found: FieldEntities;
  try {
    found = fieldEntities(outcome.units, await entityGroups(store), res.id, (split, start, end) =>
      paragraphId(res.id, key, split, start, end),
    );
  } catch {
    return; // entities are an extra: text the library cannot read leaves the field without them
  }
  entityCost.paragraphs += found.paragraphs;
  entityCost.ms += found.ms;
  for (const row of rows) {
    const facets = found.facets.get(row.id);
    if (facets) row.facets = [...row.facets, ...facets];
  }
  const meta = (outcome.extracted?.metadata ?? {}) as { metadata?: unknown; split_metadata?: Record<string, unknown> };
  merge(meta.metadata, found.metadata);
  for (const [split, m] of Object.entries(found.split_metadata)) merge(meta.split_metadata?.[split], m);
  outcome.relations = found.relations;
}

/** Keep the relations of the fields just processed on the resource record, and drop those of removed fields. */
export function applyRelations(res: ResourceDoc, results: { key: string; outcome: FieldOutcome }[]): void {
  const by = { ...(res.field_relations ?? {}) } as Record<string, Relation[]>;
  for (const r of results) {
    if (r.outcome.relations?.length) by[r.key] = r.outcome.relations;
    else delete by[r.key];
  }
  for (const k of Object.keys(by)) if (!res.fields[k]) delete by[k];
  if (Object.keys(by).length) res.field_relations = by;
  else delete res.field_relations;
}
