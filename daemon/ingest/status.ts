import { LETTER_FIELD } from "../../src/api/common.js";
import type { ProcessingItem, ProcessingStatus, ProcessingStatusQuery } from "../../src/api/processing.js";
import { invalid } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { ResourceDoc } from "../store/index.js";
import type { ProcessingQueue } from "./queue.js";

const encodeCursor = (r: ResourceDoc) => Buffer.from(JSON.stringify([r.created, r.id])).toString("base64url");

function decodeCursor(c: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(c, "base64url").toString("utf8"));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "string")) return v as [string, string];
  } catch {}
  throw invalid([{ type: "value_error", loc: ["query", "cursor"], msg: "Invalid cursor", input: c, ctx: {} }]);
}

function itemOf(kbid: string, r: ResourceDoc, state: ReturnType<ProcessingQueue["state"]>): ProcessingItem {
  const fields = Object.entries(r.fields).map(([key, f]) => ({
    field: key,
    field_type: LETTER_FIELD[key.split("/")[0]] ?? f.type,
    field_id: f.id,
    status: f.status,
    ...(f.error ? { error: f.error } : {}),
    ...(f.status === "PENDING" && f.retry
      ? { retry: { attempts: f.retry.attempts, first_failure: f.retry.since, next_attempt: f.retry.next } }
      : {}),
  }));
  const s = r.metadata.status;
  return {
    resource_id: r.id,
    kbid,
    ...(r.slug ? { slug: r.slug } : {}),
    ...(r.title ? { title: r.title } : {}),
    status: s,
    scheduled: state !== undefined,
    running: state === "running",
    completed: s !== "PENDING",
    failed: s === "ERROR" || s === "EXPIRED" || s === "BLOCKED",
    created: r.created,
    modified: r.modified,
    fields,
  };
}

/** The queue's state for a knowledge box and the processing status of its resources, oldest first. */
export async function processingStatus(
  kbs: KbService,
  queue: ProcessingQueue,
  kbid: string,
  q: ProcessingStatusQuery,
): Promise<ProcessingStatus> {
  const { kb, store } = await kbs.open(kbid);
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  // Polled (`--wait`, scripts) on boxes of 100,000 resources: the index answers without reading them all.
  const { resources: page, more } = store.resourceIndex.page(q.status, after, q.limit);
  const c = queue.counts(kb.uuid);
  return {
    queue: {
      pending: c.queued,
      running: c.running,
      pending_fields: c.queued_fields,
      running_fields: c.running_fields,
      retrying: c.retrying,
      retrying_fields: c.retrying_fields,
    },
    totals: store.resourceIndex.totals(),
    results: page.map((r) => itemOf(kb.uuid, r, queue.state(kb.uuid, r.id))),
    cursor: more ? encodeCursor(page[page.length - 1]) : null,
  };
}
