import type { KbStore, ResourceDoc } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import { fieldFacets, resourceColumns, userParagraphLabels } from "./rows.js";

/** The MIME type a field's extraction found (from extracted metadata kept inline by older records). */
function mimeOf(doc: { mime?: string; extracted?: Record<string, unknown> } | undefined): string | undefined {
  const m = (doc?.extracted?.metadata as { metadata?: { mime_type?: string } } | undefined)?.metadata;
  return doc?.mime ?? m?.mime_type;
}

/**
 * Rewrite the resource-level columns (labels, origin facets, path, dates, hidden, groups) of the
 * already indexed paragraphs of a resource, keeping their text and vectors: a metadata change never
 * re-extracts or re-embeds. Fields in `skip` are being reprocessed and get fresh rows anyway.
 */
export async function refreshResource(store: KbStore, res: ResourceDoc, skip: Set<string>): Promise<number> {
  const byField = new Map<string, ParagraphRow[]>();
  for (const row of await store.paragraphs.resourceRows(res.id)) {
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
      Object.assign(row, {
        path: cols.path,
        created: cols.created,
        modified: cols.modified,
        hidden: cols.hidden,
        groups: cols.groups,
      });
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
