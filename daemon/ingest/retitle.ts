import { basename } from "node:path";
import type { FileField, LinkField } from "../../src/api/fields.js";
import { fieldKey, prepareField } from "../resources/fields.js";
import { type FieldDoc, fieldRecordKey, type KbStore, type ResourceDoc } from "../store/index.js";
import type { FieldOutcome } from "./process-field.js";

/** Formats whose extracted title names the document: a web page's <title>, a Markdown heading or front matter. */
const TITLED = new Set(["text/html", "application/xhtml+xml", "text/markdown"]);

/** A field just extracted, as processResource holds it. */
export interface TitleSource {
  key: string;
  doc: FieldDoc | undefined;
  outcome: FieldOutcome;
}

/**
 * The titles a resource has when nobody titled it: none, its file's name (or its path's last part) or its
 * link's URL, or the title this field's content gave it before. Any other title was given by the user.
 */
function defaulted(res: ResourceDoc, key: string, doc: FieldDoc): boolean {
  const t = res.title?.trim() ?? "";
  if (!t || res.titled_by === key) return true;
  const o = res.origin;
  const names =
    doc.type === "link"
      ? [(doc.value as LinkField).uri, o?.url]
      : [(doc.value as FileField).file?.filename, o?.filename, o?.path ? basename(o.path) : undefined];
  return names.some((n) => n && n === t);
}

/**
 * A web page or Markdown document names itself: when the resource's title was defaulted, its content's
 * title becomes the resource title. The record and the title field (`a/title`) are updated here, and the
 * title field's new value is returned to be processed in this same run (its paragraph is what finds the
 * resource by its title; the other fields' paragraphs are indexed with the new title as context).
 */
export async function retitle(
  store: KbStore,
  rid: string,
  work: TitleSource[],
  current: (key: string) => boolean,
  /** The resource's field records as this run read them (spares a read of the title field's). */
  docs?: Map<string, FieldDoc>,
): Promise<FieldDoc | undefined> {
  const res = store.resources.get(rid);
  if (!res) return undefined;
  const src = work.find(
    (w) =>
      (w.doc?.type === "file" || w.doc?.type === "link") &&
      w.outcome.status === "PROCESSED" &&
      w.outcome.title &&
      TITLED.has((w.outcome.mime ?? "").split(";")[0].trim().toLowerCase()),
  );
  const title = src?.outcome.title?.trim();
  if (!src?.doc || !title || title === res.title) return undefined;
  const key = fieldKey("generic", "title");
  const prepared = await prepareField("generic", "title", title, { kbid: store.kbid, rid, blobs: store.blobs, loc: [] });
  const old = res.fields[key]
    ? (docs?.get(fieldRecordKey(rid, key)) ?? (await store.fields.get(fieldRecordKey(rid, key))))
    : undefined;
  // Checked again after the awaits: the user may have titled the resource meanwhile.
  const cur = store.resources.get(rid);
  if (!cur || !current(src.key) || !defaulted(cur, src.key, src.doc)) return undefined;
  const doc: FieldDoc = { ...(old ?? {}), rid, type: "generic", id: "title", value: title };
  delete doc.errors;
  // A new record sharing what did not change with the cached one (which is never changed in place);
  // Object.assign, not spread, keeps the records' hidden classes shared (see commitStatuses).
  const next: ResourceDoc = Object.assign({}, cur, {
    title,
    titled_by: src.key,
    fields: Object.assign({}, cur.fields, {
      [key]: {
        type: "generic",
        id: "title",
        status: "PENDING",
        hash: prepared.hash,
        added: cur.fields[key]?.added ?? new Date().toISOString(),
      },
    }),
  });
  await Promise.all([store.fields.put(fieldRecordKey(rid, key), rid, doc), store.resources.put(rid, next)]);
  return doc;
}
