import type { FieldError } from "../../src/api/common.js";
import type { ConversationField, FileField, KeyValueField, LinkField, TextField } from "../../src/api/fields.js";
import type { EntityGroupDef, Relation } from "../entities/index.js";
import type { FetchPolicy } from "../net/outbound.js";
import type { BlobStore } from "../store/blobs.js";
import type { FieldDoc } from "../store/index.js";
import {
  detectLanguages,
  ExtractionError,
  extractConversationField,
  extractFileField,
  extractGenericField,
  extractKeyValueField,
  extractLinkField,
  extractTextField,
} from "./extract/index.js";
import type { IndexUnit } from "./rows.js";
import { type SplitOptions, splitParagraphs } from "./split.js";
import type { Extracted } from "./types.js";

/** What processing one field produced: its status, the units to index and what `show=extracted` serves. */
export interface FieldOutcome {
  status: "PROCESSED" | "EMPTY" | "ERROR" | "BLOCKED" | "EXPIRED";
  error?: FieldError;
  /** A failure that may go away (network, 5xx, 429): the queue keeps the field PENDING and retries it. */
  transient?: boolean;
  /** How long the server asked us to wait (Retry-After), for a transient failure. */
  retryAfterMs?: number;
  units: IndexUnit[];
  extracted?: Record<string, unknown>;
  mime?: string;
  language?: string;
  languages: string[];
  /** The title the content gives itself (a page's <title>, a Markdown heading), when it has one. */
  title?: string;
  /** The relations of the entities found in the field (ingest/entities.ts). */
  relations?: Relation[];
  /** Entity facets by paragraph id, once the field's entities were read (ingest/entities.ts findEntities). */
  facets?: Record<string, string[]>;
  /** What reading the entities cost (paragraphs, ms), for the daemon's totals. */
  entityCost?: { paragraphs: number; ms: number };
}

/** Where file fields find their bytes (the blob store, or a path handed to an extraction worker). */
export type BlobPaths = Pick<BlobStore, "path"> & Partial<Pick<BlobStore, "ensureLocal" | "readBuffer">>;

/** How a field is processed beyond its own value (plain data: it crosses to the extraction workers). */
export interface ProcessOptions {
  /** How the splitter cuts (from the field's split strategy: see ingest/strategy.ts splitOptionsFor). */
  split?: SplitOptions;
  /** What links may reach (the daemon's outbound policy, KBOX_FETCH_ALLOW*); default: anything. */
  fetchPolicy?: FetchPolicy;
  /** Read images and PDF pages without a text layer by OCR (the daemon's KBOX_OCR); default true. */
  ocr?: boolean;
  /** A file field's bytes, already read (in-process extraction of a packed blob: it has no file). */
  bytes?: Buffer;
  /** Read the field's entities with its extraction (the field thread does): its resource and the box's groups. */
  entities?: { rid: string; groups: EntityGroupDef[] };
}

/** Extract a stored field by its kind; file fields read their bytes from the blob store. */
export async function extractField(
  doc: FieldDoc,
  blobs: BlobPaths,
  signal?: AbortSignal,
  opts?: ProcessOptions,
): Promise<Extracted> {
  switch (doc.type) {
    case "text":
      return extractTextField(doc.value as TextField);
    case "file": {
      const v = doc.value as FileField;
      if (!doc.blob)
        throw new ExtractionError("INVALID_INPUT", "The file field has no content: send a payload or upload the file");
      return extractFileField({
        path: blobs.path(doc.blob),
        bytes: opts?.bytes,
        filename: v.file.filename ?? undefined,
        contentType: v.file.content_type ?? undefined,
        password: v.password ?? undefined,
        language: v.language ?? undefined,
        ocr: opts?.ocr ?? true,
      });
    }
    case "link":
      return extractLinkField(doc.value as LinkField, { signal, policy: opts?.fetchPolicy });
    case "conversation":
      return extractConversationField(doc.value as ConversationField);
    case "key_value":
      return extractKeyValueField(doc.value as KeyValueField);
    case "generic":
      return extractGenericField(doc.id, typeof doc.value === "string" ? doc.value : String(doc.value ?? ""));
  }
}

/** The retry marks of an error flagged transient (a link fetch or embeddings call worth trying again). */
export function transientOf(err: unknown): Pick<FieldOutcome, "transient" | "retryAfterMs"> {
  const t = err as { transient?: unknown; retryAfterMs?: unknown } | undefined;
  if (t?.transient !== true) return {};
  return typeof t.retryAfterMs === "number" ? { transient: true, retryAfterMs: t.retryAfterMs } : { transient: true };
}

/** The outcome of a failure, as plain data: BLOCKED by policy, transient (retried) or ERROR. */
export function failedOutcome(err: unknown): FieldOutcome {
  const out: FieldOutcome = { status: "ERROR", error: fieldError(err), units: [], languages: [] };
  if (err instanceof ExtractionError && err.code_str === "BLOCKED") out.status = "BLOCKED";
  else Object.assign(out, transientOf(err));
  return out;
}

/** The wire's error object for a failed field. */
export function fieldError(err: unknown): FieldError {
  const created = new Date().toISOString();
  if (err instanceof ExtractionError)
    return { body: err.message, code: err.code, code_str: err.code_str, created, severity: "ERROR" };
  const msg = err instanceof Error ? err.message : String(err);
  return { body: `Processing failed: ${msg}`, code: 0, code_str: "PROCESSING_FAILED", created, severity: "ERROR" };
}

/** Positions of paragraphs as extracted metadata serves them. */
function paragraphMeta(u: IndexUnit) {
  return u.paragraphs.map((p) => ({
    start: p.start,
    end: p.end,
    kind: p.kind,
    page: { page: p.page_number, page_with_visual: p.kind === "OCR" },
    representation: { is_a_table: p.is_a_table },
    index: p.index,
  }));
}

const strip = (m: Extracted["metadata"]) =>
  Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined && v !== null));

/** Split an extraction into index units (the whole field, or one per conversation message). */
function splitUnits(ex: Extracted, opts: ProcessOptions = {}): IndexUnit[] {
  const lang = ex.metadata.language ?? "";
  return ex.splits
    ? Object.entries(ex.splits).map(([ident, sub]) => ({
        split: ident,
        paragraphs: splitParagraphs(sub, opts.split),
        lang: sub.metadata.language ?? lang,
      }))
    : [{ split: "", paragraphs: splitParagraphs(ex, opts.split), lang }];
}

/** Split an extraction into index units and the `extracted` document of the field. */
export function outcomeOf(doc: FieldDoc, ex: Extracted, opts: ProcessOptions = {}): FieldOutcome {
  return describe(doc, ex, splitUnits(ex, opts));
}

/** The outcome of a field from its extraction and its split units. */
function describe(doc: FieldDoc, ex: Extracted, units: IndexUnit[]): FieldOutcome {
  const whole = units.find((u) => u.split === "");
  const metadata = {
    ...strip(ex.metadata),
    paragraphs: whole ? paragraphMeta(whole) : [],
    last_extract: new Date().toISOString(),
  };
  const extracted: Record<string, unknown> = {
    text: {
      text: ex.text,
      split_text: Object.fromEntries(Object.entries(ex.splits ?? {}).map(([k, v]) => [k, v.text])),
      deleted_splits: [],
    },
    metadata: {
      metadata,
      split_metadata: Object.fromEntries(
        units
          .filter((u) => u.split)
          .map((u) => [u.split, { language: ex.splits?.[u.split]?.metadata.language, paragraphs: paragraphMeta(u) }]),
      ),
      deleted_splits: [],
    },
  };
  if (doc.type === "file") {
    const f = (doc.value as FileField).file as { md5?: string | null };
    extracted.file = {
      language: ex.metadata.language,
      md5: f.md5 ?? undefined,
      metadata: strip(ex.metadata),
      icon: ex.metadata.mime_type,
    };
  }
  if (doc.type === "link") {
    const m = ex.metadata;
    extracted.link = {
      title: m.title,
      description: m.description,
      language: m.language,
      metadata: strip(m),
      type: m.mime_type,
      date: m.date,
    };
  }
  const empty = units.every((u) => u.paragraphs.length === 0);
  return {
    status: empty ? "EMPTY" : "PROCESSED",
    units,
    extracted,
    mime: ex.metadata.mime_type,
    language: ex.metadata.language,
    languages: ex.metadata.languages ?? [],
    ...(ex.metadata.title ? { title: ex.metadata.title } : {}),
  };
}

/** What an extraction worker sends back: the extraction (languages not yet detected) and its units, or a final outcome. */
export type PreparedField = { ex: Extracted; units: IndexUnit[] } | { outcome: FieldOutcome };

/** The worker's half of processField: extract and split, leaving language detection to the daemon. */
export async function prepareField(
  doc: FieldDoc,
  blobs: BlobPaths,
  signal?: AbortSignal,
  opts?: ProcessOptions,
): Promise<PreparedField> {
  try {
    const ex = await extractField(doc, blobs, signal, opts);
    return { ex, units: splitUnits(ex, opts) };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { outcome: failedOutcome(err) };
  }
}

/** The daemon's half: detect languages (once, here, rather than in every worker) and describe the outcome. */
export async function finishField(doc: FieldDoc, prepared: PreparedField): Promise<FieldOutcome> {
  if ("outcome" in prepared) return prepared.outcome;
  const { ex, units } = prepared;
  await detectLanguages(ex);
  const lang = ex.metadata.language ?? "";
  for (const u of units) u.lang = (u.split ? ex.splits?.[u.split]?.metadata.language : undefined) ?? lang;
  return describe(doc, ex, units);
}

/** Extract and split one field; extraction failures become an ERROR outcome, never a throw. */
export async function processField(
  doc: FieldDoc,
  blobs: BlobPaths,
  signal?: AbortSignal,
  opts?: ProcessOptions,
): Promise<FieldOutcome> {
  try {
    return outcomeOf(doc, await extractField(doc, blobs, signal, opts), opts);
  } catch (err) {
    if (signal?.aborted) throw err;
    return failedOutcome(err);
  }
}
