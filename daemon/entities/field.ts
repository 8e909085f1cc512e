/**
 * A field's entities in the upstream shapes: FieldMetadata's `ner`, `entities` and `positions` (for
 * the whole field and each split), the `/e/{label}/{text}` facets of each paragraph, and the resource's
 * relations (resource → entity, entity → entity by the verb of a sentence).
 */
import { analyse, type EntityGroupDef, type Span } from "./extract.js";

/** The paragraphs of a field to read: the whole field (`split` "") or one conversation message. */
export interface EntityUnit {
  split: string;
  lang?: string;
  paragraphs: { start: number; end: number; text: string }[];
}

/** FieldMetadata's entity members, as the upstream model defines them. */
export interface EntityMetadata {
  ner: Record<string, string>;
  entities: Record<string, { entities: { text: string; label: string; positions: Span[] }[] }>;
  positions: Record<string, { entity: string; position: Span[] }>;
}

/** An upstream RelationNode. */
export interface RelationNode {
  value: string;
  type: "entity" | "resource" | "label" | "user";
  group: string;
}

/** An upstream Relation (what a resource's `relations` lists). */
export interface Relation {
  relation: "ENTITY" | "ABOUT" | "CHILD" | "COLAB" | "SYNONYM" | "OTHER";
  label: string;
  metadata: {
    paragraph_id: string;
    source_start?: number;
    source_end?: number;
    to_start?: number;
    to_end?: number;
  } | null;
  from: RelationNode;
  to: RelationNode;
}

export interface FieldEntities {
  /** The whole field's (split ""). */
  metadata: EntityMetadata;
  split_metadata: Record<string, EntityMetadata>;
  /** `/e/{label}/{text}` facets by paragraph id. */
  facets: Map<string, string[]>;
  relations: Relation[];
  /** Paragraphs read and the time it took (ms), for the cost per paragraph. */
  paragraphs: number;
  /** Paragraphs past the text budget, not read for entities. */
  skipped: number;
  ms: number;
}

/** The key of the processor's entities in `FieldMetadata.entities` (upstream keys data augmentation tasks by id). */
export const PROCESSOR = "processor";
/** At most this many relations are stored per field (a long document names many things). */
export const MAX_RELATIONS = 1000;

const empty = (): EntityMetadata => ({ ner: {}, entities: { [PROCESSOR]: { entities: [] } }, positions: {} });

/** A facet value of an entity (`/e/PERSON/Marie Curie`). */
export const entityFacet = (label: string, text: string) => `/e/${label}/${text}`;

/**
 * Read the entities of a field's paragraphs. `paragraphId` names a paragraph as the index does;
 * `rid` is the resource the relations start from.
 */
/** Characters of a field read for entities (about 2,000 paragraphs, ~0.1 s); the rest of a longer field is skipped. */
export const ENTITY_TEXT_BUDGET = 1024 * 1024;

export function fieldEntities(
  units: EntityUnit[],
  groups: EntityGroupDef[],
  rid: string,
  paragraphId: (split: string, start: number, end: number) => string,
  budgetChars = ENTITY_TEXT_BUDGET,
): FieldEntities {
  const t0 = performance.now();
  const out: FieldEntities = {
    metadata: empty(),
    split_metadata: {},
    facets: new Map(),
    relations: [],
    paragraphs: 0,
    skipped: 0,
    ms: 0,
  };
  const seen = new Set<string>();
  const relate = (r: Relation) => {
    const k = `${r.from.group}/${r.from.value}\u0000${r.label}\u0000${r.to.group}/${r.to.value}`;
    if (seen.has(k) || out.relations.length >= MAX_RELATIONS) return;
    seen.add(k);
    out.relations.push(r);
  };
  for (const u of units) {
    if (u.split) out.split_metadata[u.split] ??= empty();
    const meta = u.split ? out.split_metadata[u.split] : out.metadata;
    for (const p of u.paragraphs) {
      // The tagger costs ~0.1 ms a paragraph on the daemon's thread: a long document is read
      // for entities up to the budget (its beginning), so one big file never stalls the daemon.
      budgetChars -= p.text.length;
      if (budgetChars < 0) {
        out.skipped += 1;
        continue;
      }
      out.paragraphs += 1;
      const pid = paragraphId(u.split, p.start, p.end);
      const { entities, relations } = analyse(p.text, groups, { language: u.lang });
      const facets: string[] = [];
      for (const e of entities) {
        const positions = e.positions.map((s) => ({ start: s.start + p.start, end: s.end + p.start }));
        const key = `${e.label}/${e.text}`;
        meta.ner[e.text] = e.label;
        meta.positions[key] ??= { entity: e.text, position: [] };
        const pos = meta.positions[key];
        pos.position.push(...positions);
        facets.push(entityFacet(e.label, e.text));
        const first = positions[0];
        relate({
          relation: "ENTITY",
          label: "",
          metadata: { paragraph_id: pid, to_start: first.start, to_end: first.end },
          from: { value: rid, type: "resource", group: "" },
          to: { value: e.text, type: "entity", group: e.label },
        });
      }
      if (facets.length) out.facets.set(pid, facets);
      for (const r of relations)
        relate({
          relation: "ENTITY",
          label: r.label,
          metadata: {
            paragraph_id: pid,
            source_start: r.from.span.start + p.start,
            source_end: r.from.span.end + p.start,
            to_start: r.to.span.start + p.start,
            to_end: r.to.span.end + p.start,
          },
          from: { value: r.from.text, type: "entity", group: r.from.label },
          to: { value: r.to.text, type: "entity", group: r.to.label },
        });
    }
    for (const [key, pos] of Object.entries(meta.positions)) {
      const label = key.slice(0, key.length - pos.entity.length - 1);
      const list = meta.entities[PROCESSOR].entities;
      const cur = list.find((e) => e.text === pos.entity && e.label === label);
      if (cur) cur.positions = pos.position;
      else list.push({ text: pos.entity, label, positions: pos.position });
    }
  }
  out.ms = performance.now() - t0;
  return out;
}
