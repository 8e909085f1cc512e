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
  const out = { ...extracted };
  // FileExtractedData.metadata and LinkExtractedData.metadata are maps of strings upstream.
  for (const k of ["file", "link"]) {
    const e = asObject(extracted[k]);
    if (e.metadata !== undefined) out[k] = { ...e, metadata: stringMap(e.metadata) };
  }
  const meta = extracted.metadata;
  if (!meta || typeof meta !== "object") return out;
  const m = meta as Record<string, unknown>;
  const splits = asObject(m.split_metadata);
  return {
    ...out,
    metadata: {
      ...m,
      metadata: fieldMetadata(m.metadata),
      split_metadata: Object.fromEntries(Object.entries(splits).map(([k, v]) => [k, fieldMetadata(v)])),
    },
  };
}

/**
 * A map of strings (the upstream `Dict[str, str]`): lists such as the detected `languages` are joined
 * with commas, numbers and booleans written out, other objects as JSON; null members are left out.
 */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(asObject(v))) {
    if (x === null || x === undefined) continue;
    if (typeof x === "string") out[k] = x;
    else if (Array.isArray(x)) out[k] = x.map((y) => (typeof y === "string" ? y : JSON.stringify(y))).join(",");
    else if (typeof x === "object") out[k] = JSON.stringify(x);
    else out[k] = String(x);
  }
  return out;
}
