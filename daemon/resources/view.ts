import { FIELD_MAP, type FieldType, LETTER_FIELD } from "../../src/api/common.js";
import type { Show } from "../../src/api/resources.js";
import { type FieldDoc, fieldRecordKey, type ResourceDoc, resourceRelations } from "../store/index.js";
import { conversationValue, extractedView } from "./field-view.js";

export interface ViewOptions {
  show: Show[];
  fieldTypes?: FieldType[];
  extracted?: string[];
}

/** Drop undefined and null members so that unset members are omitted from responses. */
export function omitUnset<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/** The basic attributes of a resource, as listings and search results show them. */
export function basicView(r: ResourceDoc): { id: string } & Record<string, unknown> {
  return omitUnset({
    id: r.id,
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    icon: r.icon,
    thumbnail: r.thumbnail,
    metadata: r.metadata,
    usermetadata: r.usermetadata,
    fieldmetadata: r.fieldmetadata,
    computedmetadata: r.computedmetadata,
    created: r.created,
    modified: r.modified,
    last_seqid: r.last_seqid,
    last_account_seq: r.last_account_seq,
    queue: r.queue,
    hidden: r.hidden,
  }) as { id: string } & Record<string, unknown>;
}

/** Serialise a resource for `GET`, honouring `show`, `field_type` and `extracted`. */
export function resourceView(
  r: ResourceDoc,
  fields: Map<string, FieldDoc> | undefined,
  opts: ViewOptions,
): { id: string } & Record<string, unknown> {
  const show = new Set(opts.show.length ? opts.show : ["basic"]);
  const out: { id: string } & Record<string, unknown> = { id: r.id };
  if (show.has("basic")) Object.assign(out, basicView(r));
  if (show.has("origin") && r.origin) out.origin = r.origin;
  if (show.has("extra") && r.extra) out.extra = r.extra;
  if (show.has("relations")) {
    const rels = resourceRelations(r);
    if (rels.length) out.relations = rels;
  }
  if (show.has("security") && r.security) out.security = r.security;
  if (show.has("values") || show.has("extracted") || show.has("errors")) out.data = dataView(r, fields ?? new Map(), show, opts);
  return out;
}

function dataView(r: ResourceDoc, fields: Map<string, FieldDoc>, show: Set<string>, opts: ViewOptions): Record<string, unknown> {
  const data: Record<string, Record<string, unknown>> = {};
  const types = opts.fieldTypes?.length ? new Set(opts.fieldTypes) : undefined;
  for (const [key, summary] of Object.entries(r.fields)) {
    const type = LETTER_FIELD[key.split("/")[0]];
    if (!type || (types && !types.has(type))) continue;
    const doc = fields.get(fieldRecordKey(r.id, key));
    const entry = fieldEntry(doc, summary, show, opts.extracted);
    const map = FIELD_MAP[type];
    data[map] ??= {};
    data[map][summary.id] = entry;
  }
  return data;
}

/** One field's entry in `data` (or the body of a field GET). */
export function fieldEntry(
  doc: FieldDoc | undefined,
  summary: ResourceDoc["fields"][string],
  show: Set<string>,
  extracted?: string[],
  page?: number,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (show.has("values") && doc) entry.value = doc.type === "conversation" ? conversationValue(doc.value, page) : doc.value;
  if (show.has("extracted") && doc?.extracted) {
    const wanted = extracted?.length ? new Set(extracted) : undefined;
    entry.extracted = extractedView(
      wanted ? Object.fromEntries(Object.entries(doc.extracted).filter(([k]) => wanted.has(k))) : doc.extracted,
    );
  }
  if (show.has("errors")) {
    if (summary.error) entry.error = summary.error;
    entry.status = summary.status;
    if (doc?.errors?.length) entry.errors = doc.errors;
  }
  return entry;
}
