import { FIELD_MAP } from "../../src/api/common.js";
import type { ProcessingRequest } from "../../src/api/nua-processing.js";
import type { KbService } from "../kbs/service.js";
import type { ResourceService } from "../resources/service.js";
import type { NuaRequestDoc } from "../store/index.js";

/** The sections of a processed record a stream's `data_types` can select. */
export const DATA_TYPES = ["text", "paragraphs", "vectors", "metadata", "errors"] as const;

interface FieldOut {
  field_type: string;
  field_id: string;
  status: string;
  text?: string;
  metadata?: unknown;
  error?: unknown;
  paragraphs?: { id: string; start: number; end: number; kind: string; lang: string; text: string; vectors?: unknown }[];
}

/**
 * The processed record of a request, read back from the client's internal box: per field its status,
 * extracted text and metadata, and its paragraphs with their vectors (by vectorset). `types` keeps
 * only those sections (DATA_TYPES).
 */
export async function processedRecord(
  kbs: KbService,
  resources: ResourceService,
  doc: NuaRequestDoc,
  types?: readonly string[],
): Promise<Record<string, unknown> | undefined> {
  const want = (t: string) => !types?.length || types.includes(t);
  const { store } = await kbs.open(doc.box).catch(() => ({ store: undefined }));
  const res = store?.resources.get(doc.rid);
  if (!store || !res) return undefined;
  const view = await resources.get(doc.box, { rid: doc.rid }, { show: ["extracted", "errors"], extracted: ["text", "metadata"] });
  const rows = want("paragraphs") || want("vectors") ? await store.paragraphs.resourceRows(doc.rid) : [];
  const fields: Record<string, FieldOut> = {};
  const data = (view.data ?? {}) as Record<string, Record<string, { extracted?: Record<string, unknown>; error?: unknown }>>;
  for (const [key, f] of Object.entries(res.fields)) {
    const plural = FIELD_MAP[f.type];
    const ex = data[plural]?.[f.id]?.extracted ?? {};
    const out: FieldOut = { field_type: f.type, field_id: f.id, status: f.status };
    if (want("text")) out.text = (ex.text as { text?: string } | undefined)?.text ?? "";
    if (want("metadata") && ex.metadata) out.metadata = ex.metadata;
    if (want("errors") && f.error) out.error = f.error;
    if (want("paragraphs") || want("vectors"))
      out.paragraphs = rows
        .filter((r) => r.field === key)
        .sort((a, b) => a.idx - b.idx || a.start - b.start)
        .map((r) => ({
          id: r.id,
          start: r.start,
          end: r.end,
          kind: r.kind,
          lang: r.lang,
          text: want("paragraphs") ? r.text : "",
          ...(want("vectors") ? { vectors: r.vectors ?? {} } : {}),
        }));
    fields[key] = out;
  }
  return { resource_id: doc.rid, title: res.title ?? doc.title, labels: doc.labels, status: res.metadata?.status, fields };
}

/** The wire's status record of a request (the processed record added by the caller when asked). */
export function statusRecord(doc: NuaRequestDoc): ProcessingRequest {
  const completed = doc.completed_at !== null;
  return {
    processing_id: doc.processing_id,
    resource_id: doc.rid,
    kbid: doc.kbid,
    title: doc.title,
    labels: doc.labels,
    completed,
    scheduled: !completed,
    timestamp: doc.timestamp,
    completed_at: doc.completed_at,
    scheduled_at: doc.scheduled_at,
    failed: doc.failed,
    retries: doc.retries,
    schedule_eta: 0,
    schedule_order: 0,
    request: doc.request,
    ...(doc.webhook_state ? { webhook: doc.webhook_state } : {}),
  };
}
