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
  /** The hash of the field's value this run read. */
  hash: string | undefined;
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
 * A resource's new title from its content, planned while its fields are extracted and written with the
 * run's results: the title field's new record in the field records' phase, the title and the field's
 * entry in the resource record with the statuses. One write of each instead of a first one at
 * extraction (adding 10,000 Markdown notes, each titled by its heading, wrote every record twice).
 */
export interface Retitle {
  title: string;
  /** The field whose content gave the title (`f/file`, `u/link`). */
  by: string;
  /** That field's record, as the run read it, and the hash of its value. */
  source: FieldDoc;
  sourceHash: string | undefined;
  /** The title field's new record, and the hash of its value. */
  doc: FieldDoc;
  hash: string;
  /** The title field's hash when planned (undefined: the resource had none): another since means it was retitled. */
  base: string | undefined;
}

/** The title field's key. */
export const TITLE_KEY = fieldKey("generic", "title");

/**
 * A web page or Markdown document names itself: when the resource's title was defaulted, its content's
 * title becomes the resource title. Returns the plan (the title field's new value is processed in this
 * same run: its paragraph is what finds the resource by its title, and the other fields' paragraphs are
 * indexed with the new title as context); nothing is written here. The caller checks that it still
 * holds (stillRetitles, and its source field current) after the awaits: the user may have titled the
 * resource meanwhile.
 */
export async function planRetitle(
  store: KbStore,
  rid: string,
  work: TitleSource[],
  /** The resource's field records as this run read them (spares a read of the title field's). */
  docs?: Map<string, FieldDoc>,
): Promise<Retitle | undefined> {
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
  const base = res.fields[TITLE_KEY]?.hash;
  const prepared = await prepareField("generic", "title", title, { kbid: store.kbid, rid, blobs: store.blobs, loc: [] });
  const old = res.fields[TITLE_KEY]
    ? (docs?.get(fieldRecordKey(rid, TITLE_KEY)) ?? (await store.fields.get(fieldRecordKey(rid, TITLE_KEY))))
    : undefined;
  const doc: FieldDoc = { ...(old ?? {}), rid, type: "generic", id: "title", value: title };
  delete doc.errors;
  return { title, by: src.key, source: src.doc, sourceHash: src.hash, doc, hash: prepared.hash, base };
}

/**
 * Does the plan still hold for the resource as it is now: its title field untouched since (nobody set a
 * title) and its title still a default one? The caller also checks that the source field is current
 * (the version this run read, not enqueued again).
 */
export function stillRetitles(res: ResourceDoc, plan: Retitle): boolean {
  return res.fields[TITLE_KEY]?.hash === plan.base && defaulted(res, plan.by, plan.source);
}

/**
 * Apply the plan to a new resource record (a copy whose `fields` is its own): the title, who gave it,
 * and the title field's entry with the new value's hash, PENDING until its status is set.
 */
export function applyRetitle(next: ResourceDoc, plan: Retitle): void {
  // Object.assign, not spread, keeps the records' hidden classes shared (see commitStatuses).
  Object.assign(next, { title: plan.title, titled_by: plan.by });
  next.fields[TITLE_KEY] = {
    type: "generic",
    id: "title",
    status: "PENDING",
    hash: plan.hash,
    added: next.fields[TITLE_KEY]?.added ?? new Date().toISOString(),
  };
}
