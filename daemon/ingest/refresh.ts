import { sqlString } from "../store/db.js";
import type { KbStore, ResourceDoc } from "../store/index.js";
import { type ParagraphRow, vectorColumn } from "../store/paragraphs.js";
import { fieldFacets, resourceColumns, userParagraphLabels } from "./rows.js";

const list = (v: unknown): string[] => (v ? Array.from(v as ArrayLike<string>) : []);

/** A stored row back as a ParagraphRow (vectors and analysed terms kept as they are). */
function rowOf(r: Record<string, unknown>, vectorsets: Iterable<string>): ParagraphRow {
  const vectors: Record<string, number[]> = {};
  for (const vs of vectorsets) {
    const v = r[vectorColumn(vs)];
    if (v) vectors[vs] = Array.from(v as ArrayLike<number>);
  }
  return {
    id: r.id as string,
    rid: r.rid as string,
    field: r.field as string,
    field_type: r.field_type as string,
    split: r.split as string,
    start: Number(r.start),
    end: Number(r.end),
    page: Number(r.page),
    idx: Number(r.idx),
    kind: r.kind as string,
    is_table: Boolean(r.is_table),
    labels: list(r.labels),
    facets: list(r.facets),
    text: r.text as string,
    lang: r.lang as string,
    terms: r.terms as string | undefined,
    path: r.path as string,
    created: Number(r.created),
    modified: Number(r.modified),
    hidden: Boolean(r.hidden),
    groups: list(r.groups),
    hash: r.hash as string,
    vectors,
  };
}

/** The MIME type a field's extraction found, from its stored extracted metadata. */
function mimeOf(doc: { extracted?: Record<string, unknown> } | undefined): string | undefined {
  const m = (doc?.extracted?.metadata as { metadata?: { mime_type?: string } } | undefined)?.metadata;
  return m?.mime_type;
}

/**
 * Rewrite the resource-level columns (labels, origin facets, path, dates, hidden, groups) of the
 * already indexed paragraphs of a resource, keeping their text and vectors: a metadata change never
 * re-extracts or re-embeds. Fields in `skip` are being reprocessed and get fresh rows anyway.
 */
export async function refreshResource(store: KbStore, res: ResourceDoc, skip: Set<string>): Promise<number> {
  const vectorsets = [...store.paragraphs.vectorColumns().keys()];
  const raw = await store.paragraphs.table.query().where(`rid = ${sqlString(res.id)}`).toArray();
  if (!raw.length) return 0;
  const byField = new Map<string, ParagraphRow[]>();
  for (const r of raw) {
    const row = rowOf(r as Record<string, unknown>, vectorsets);
    if (skip.has(row.field)) continue;
    byField.set(row.field, [...(byField.get(row.field) ?? []), row]);
  }
  if (!byField.size) return 0;
  const docs = await store.fields.group(res.id);
  const cols = resourceColumns(res);
  const labels = userParagraphLabels(res);
  let n = 0;
  const writes: Promise<void>[] = [];
  for (const [field, rows] of byField) {
    const mime = mimeOf(docs.get(`${res.id}/${field}`));
    for (const row of rows) {
      Object.assign(row, { path: cols.path, created: cols.created, modified: cols.modified, hidden: cols.hidden, groups: cols.groups });
      row.facets = [...new Set([...cols.facets, ...fieldFacets(mime, row.lang)])];
      row.labels = labels.get(row.id) ?? [];
    }
    n += rows.length;
    writes.push(store.paragraphs.replaceField(res.id, field, rows));
  }
  // Pushed together, the fields of a resource are committed in one batch.
  await Promise.all(writes);
  return n;
}
