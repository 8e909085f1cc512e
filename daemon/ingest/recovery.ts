import type { KbService } from "../kbs/service.js";
import { type FieldDoc, fieldRecordKey } from "../store/index.js";
import { fieldError } from "./process-field.js";
import { aggregateStatus } from "./process-resource.js";

/**
 * Delete paragraphs whose resource is gone: a resource record is deleted before its paragraphs, so
 * a crash in between can leave some behind. The queue runs it in the background after start.
 */
export async function sweepOrphans(kbs: KbService, stopping: () => boolean, log: (msg: string) => void): Promise<number> {
  let n = 0;
  for (const kb of kbs.list()) {
    if (stopping()) break;
    const { store } = await kbs.open(kb.uuid);
    for (const rid of await store.paragraphs.resourceIds()) {
      if (store.resources.has(rid) || stopping()) continue;
      await store.paragraphs.deleteResource(rid);
      n++;
    }
  }
  if (n) log(`ingest: removed the paragraphs of ${n} deleted resource(s)`);
  return n;
}

/** Record ERROR on fields that keep failing unexpectedly, so that nothing stays PENDING forever. */
export async function markFailed(
  kbs: KbService,
  kbid: string,
  rid: string,
  fields: Iterable<string>,
  err: unknown,
): Promise<void> {
  const store = await kbs.open(kbid).then(
    (o) => o.store,
    () => undefined,
  );
  const cur = store?.resources.get(rid);
  if (!store || !cur) return;
  const next = structuredClone(cur);
  const error = fieldError(err);
  const keys = [...fields].filter((key) => next.fields[key]?.status === "PENDING");
  for (const key of keys) {
    Object.assign(next.fields[key], { status: "ERROR", error });
    delete next.fields[key].retry; // a later reprocess starts a fresh retry deadline
  }
  next.metadata.status = aggregateStatus(next);
  await store.resources.put(rid, next).catch(() => undefined);
  await Promise.all(
    keys.map(async (key) => {
      const doc = await store.fields.get(fieldRecordKey(rid, key)).catch(() => undefined);
      if (doc)
        await store.fields
          .put(fieldRecordKey(rid, key), rid, { ...doc, errors: [error] } satisfies FieldDoc)
          .catch(() => undefined);
    }),
  );
}
