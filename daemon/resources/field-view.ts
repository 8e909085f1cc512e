/**
 * Members the upstream models require of a field as served: a conversation's paging counters, and the
 * lists and maps of an extracted FieldMetadata that kbox leaves unset when it has nothing for them.
 */

/** Messages per page of a conversation as served: the whole conversation is one page. */
export interface ConversationPage {
  messages: unknown[];
  page: number;
  pages: number;
  total: number;
  size: number;
}

/** A conversation value with `page`, `pages`, `total` and `size`; a page past the last has no messages. */
export function conversationValue(value: unknown, page = 1): Record<string, unknown> & ConversationPage {
  const v = (value ?? {}) as Record<string, unknown>;
  const all = Array.isArray(v.messages) ? v.messages : [];
  return { ...v, messages: page === 1 ? all : [], page, pages: 1, total: all.length, size: all.length };
}

const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A FieldMetadata with every member the model requires (links, paragraphs, ner, entities, classifications, positions). */
export function fieldMetadata(m: unknown): Record<string, unknown> {
  const o = asObject(m);
  return {
    ...o,
    links: Array.isArray(o.links) ? o.links : [],
    paragraphs: Array.isArray(o.paragraphs) ? o.paragraphs : [],
    ner: asObject(o.ner),
    entities: asObject(o.entities),
    classifications: Array.isArray(o.classifications) ? o.classifications : [],
    positions: asObject(o.positions),
  };
}

/** Extracted data with its computed metadata (the whole field's and each split's) completed. */
export function extractedView(extracted: Record<string, unknown>): Record<string, unknown> {
  const meta = extracted.metadata;
  if (!meta || typeof meta !== "object") return extracted;
  const m = meta as Record<string, unknown>;
  const splits = asObject(m.split_metadata);
  return {
    ...extracted,
    metadata: {
      ...m,
      metadata: fieldMetadata(m.metadata),
      split_metadata: Object.fromEntries(Object.entries(splits).map(([k, v]) => [k, fieldMetadata(v)])),
    },
  };
}
