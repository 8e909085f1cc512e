import type { ResourceStatus } from "../../src/api/common.js";
import { entityGroupsOf } from "../kbs/entities.js";
import { fieldKey } from "../resources/fields.js";
import { type FieldDoc, fieldRecordKey, type KbStore, type ResourceDoc } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import { embedRows, type VectorsetEmbedder } from "./embed.js";
import { annotateEntities, applyRelations } from "./entities.js";
import {
  type BlobPaths,
  type FieldOutcome,
  failedOutcome,
  fieldError,
  type ProcessOptions,
  transientOf,
} from "./process-field.js";
import { applyRetitle, planRetitle, type Retitle, stillRetitles, TITLE_KEY } from "./retitle.js";
import { expireIfDue, nextRetry, type RetryPolicy } from "./retry.js";
import { buildRows } from "./rows.js";
import { splitOptionsFor } from "./strategy.js";

/** What one run over a resource needs from the queue. */
export interface RunContext {
  store: KbStore;
  /** The knowledge box's vectorsets and embedders, loaded on first need (empty: keyword only). */
  embedders: () => Promise<VectorsetEmbedder[]>;
  /** True when the field was enqueued again since this run started: its result is stale. */
  superseded: (fieldKey: string) => boolean;
  /** Extract and split a field (the queue runs it in its worker pool). */
  extract: (doc: FieldDoc, blobs: BlobPaths, signal?: AbortSignal, opts?: ProcessOptions) => Promise<FieldOutcome>;
  signal: AbortSignal;
  /** Retries of transient failures. */
  retry: RetryPolicy;
  /** Extract named entities (the daemon's setting and the box's `ner_model`); on unless false. */
  entities?: boolean;
}

/** Counters of one run, for logs, status and benchmarks. */
export interface RunStats {
  fields: number;
  paragraphs: number;
  embedded: number;
  errors: number;
}

interface FieldResult {
  key: string;
  hash: string | undefined;
  outcome: FieldOutcome;
  /** The title field's result when the content retitles the resource: the plan, applied with the statuses. */
  retitle?: Retitle;
}

/**
 * Once nothing is pending, the most actionable failure wins: ERROR (the input is bad), then EXPIRED
 * (kept failing transiently; reprocess may work), then BLOCKED (refused by policy); all EMPTY makes it EMPTY.
 */
export function aggregateStatus(res: ResourceDoc): ResourceStatus {
  const s = Object.values(res.fields).map((f) => f.status);
  if (s.includes("PENDING")) return "PENDING";
  for (const bad of ["ERROR", "EXPIRED", "BLOCKED"] as const) if (s.includes(bad)) return bad;
  if (s.length && s.every((x) => x === "EMPTY")) return "EMPTY";
  return "PROCESSED";
}

/** Is the field still the version this run read (resource and field present, same value, not re-enqueued)? */
function current(ctx: RunContext, rid: string, key: string, hash: string | undefined): boolean {
  const f = ctx.store.resources.get(rid)?.fields[key];
  return Boolean(f) && f?.hash === hash && !ctx.superseded(key);
}

/**
 * Is a work item still worth writing: a field the version this run read, or the title a retitle plans
 * while the plan holds (the title field untouched since, its source field current).
 */
function live(ctx: RunContext, rid: string, w: FieldResult): boolean {
  return w.retitle ? holds(ctx, rid, w.retitle) : current(ctx, rid, w.key, w.hash);
}

/** Does a retitle plan still hold (stillRetitles), its title field not enqueued again and its source field current? */
function holds(ctx: RunContext, rid: string, plan: Retitle): boolean {
  const res = ctx.store.resources.get(rid);
  return Boolean(res && stillRetitles(res, plan)) && !ctx.superseded(TITLE_KEY) && current(ctx, rid, plan.by, plan.sourceHash);
}

async function indexRows(
  ctx: RunContext,
  res: ResourceDoc,
  doc: FieldDoc,
  outcome: FieldOutcome,
  stats: RunStats,
): Promise<ParagraphRow[]> {
  if (outcome.status !== "PROCESSED") return [];
  const rows = buildRows(res, doc.type, doc.id, outcome.units, outcome.mime);
  if (ctx.entities !== false) annotateEntities(outcome, rows);
  try {
    const embedders = await ctx.embedders();
    stats.embedded += await embedRows(ctx.store.paragraphs, res.id, fieldKey(doc.type, doc.id), rows, embedders, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const e = fieldError(err);
    Object.assign(outcome, {
      status: "ERROR",
      error: { ...e, code_str: "EMBEDDING_FAILED", body: `Embedding failed: ${(err as Error).message}` },
    });
    // An embeddings endpoint that is down or overloaded (remote.ts marks it) is retried, not an ERROR.
    Object.assign(outcome, transientOf(err));
    return [];
  }
  return rows;
}

interface Work extends FieldResult {
  doc: FieldDoc | undefined;
  rows: ParagraphRow[];
}

/** Extract and split the fields (all fields at once), and the title the content gives the resource (see planRetitle). */
async function extractAll(ctx: RunContext, rid: string, fields: string[], docs: Map<string, FieldDoc>): Promise<Work[]> {
  const keys = fields.filter((key) => ctx.store.resources.get(rid)?.fields[key]);
  // Entities are read with the extraction where it runs on a field thread (see indexRows for the rest).
  const entities = ctx.entities !== false ? { rid, groups: await entityGroupsOf(ctx.store) } : undefined;
  const one = async (key: string): Promise<Work> => {
    const hash = ctx.store.resources.get(rid)?.fields[key]?.hash;
    const doc = docs.get(fieldRecordKey(rid, key));
    const outcome: FieldOutcome = doc
      ? await ctx.extract(doc, ctx.store.blobs, ctx.signal, { split: await splitOptionsFor(ctx.store, doc), entities })
      : failedOutcome(new Error("the field's value is missing"));
    return { key, hash, doc, outcome, rows: [] };
  };
  // With a file or a link that may give the title, the title field waits for them: its value is then
  // either theirs (extracted once, not the default's and then theirs) or its own.
  const titleLater = keys.includes(TITLE_KEY) && keys.some((k) => k.startsWith("f/") || k.startsWith("u/"));
  const work = await Promise.all(keys.filter((k) => !titleLater || k !== TITLE_KEY).map(one));
  // A page or Markdown document that names itself titles a resource nobody titled (before its rows take the title).
  const plan = await planRetitle(ctx.store, rid, work, docs);
  if (plan && holds(ctx, rid, plan)) {
    const split = await splitOptionsFor(ctx.store, plan.doc);
    const outcome = await ctx.extract(plan.doc, ctx.store.blobs, ctx.signal, { split, entities });
    return [
      ...work.filter((w) => w.key !== TITLE_KEY),
      { key: TITLE_KEY, hash: plan.hash, doc: plan.doc, outcome, rows: [], retitle: plan },
    ];
  }
  if (titleLater) work.push(await one(TITLE_KEY));
  return work;
}

/** Build (and embed) the paragraph rows of the fields still current; with the title a retitle plans as their context. */
async function indexAll(ctx: RunContext, rid: string, work: Work[], stats: RunStats): Promise<void> {
  const plan = work.find((w) => w.retitle)?.retitle;
  for (const w of work) {
    const cur = ctx.store.resources.get(rid);
    const res = cur && plan && holds(ctx, rid, plan) ? Object.assign({}, cur, { title: plan.title }) : cur;
    if (res && w.doc && live(ctx, rid, w)) w.rows = await indexRows(ctx, res, w.doc, w.outcome, stats);
  }
}

/** A field's record with the run's results: its extraction output, type and error. */
function resultRecord(w: Work, output: string | undefined): FieldDoc | undefined {
  if (!w.doc) return undefined;
  const next: FieldDoc = { ...w.doc, extracted_blob: output, mime: w.outcome.mime };
  delete next.extracted; // inline in older records; the output is in the blob folder now
  if (!next.extracted_blob) delete next.extracted_blob;
  if (!next.mime) delete next.mime;
  if (w.outcome.error) next.errors = [w.outcome.error];
  else delete next.errors;
  return next;
}

/**
 * Write the results: the paragraphs (one atomic replace per field, committed together) and the field
 * records with their extraction outputs, side by side, then (by the caller) the statuses, the commit
 * point of the work. A crash in between leaves the fields PENDING and they are simply processed again
 * (a record already pointing to this run's output has it removed by that next run).
 */
async function write(ctx: RunContext, rid: string, work: Work[], stats: RunStats): Promise<FieldResult[]> {
  // A transient failure leaves what the field had indexed in place: only its status (PENDING, retry) changes.
  const retrying = work.filter((w) => w.outcome.transient);
  const writing = work.filter((w) => !w.outcome.transient && live(ctx, rid, w));
  const outputs = new Map<Work, string>(); // blob keys of the extraction outputs written
  const recorded = new Set<Work>();
  await Promise.all([
    // A planned title retried later: its retry reads the new value from the record.
    ...retrying
      .filter((w) => w.retitle && w.doc && live(ctx, rid, w))
      .map((w) => ctx.store.fields.put(fieldRecordKey(rid, w.key), rid, w.doc as FieldDoc)),
    ...writing.map((w) => ctx.store.paragraphs.replaceField(rid, w.key, w.rows)),
    ...writing.map(async (w) => {
      if (w.outcome.extracted) outputs.set(w, await ctx.store.writeExtracted(rid, w.key, w.outcome.extracted));
      // A writer touches a field (synchronously) before writing its new value: checking right before our
      // put means a newer value is never overwritten with the result of an older one.
      if (!live(ctx, rid, w)) return;
      recorded.add(w);
      const next = resultRecord(w, outputs.get(w));
      if (next) await ctx.store.fields.put(fieldRecordKey(rid, w.key), rid, next);
    }),
  ]);
  if (!ctx.store.resources.get(rid)) {
    await ctx.store.paragraphs.deleteResource(rid); // deleted while we wrote: leave no orphans
    await ctx.store.removeBlobs(outputs.values());
    return [];
  }
  // A field removed while we wrote: its record went with it (the removal's delete came after our put).
  // (A planned title field is in the record only once the statuses are written.)
  const gone = writing.filter((w) => !w.retitle && !ctx.store.resources.get(rid)?.fields[w.key]);
  await Promise.all(gone.map((w) => ctx.store.paragraphs.replaceField(rid, w.key, [])));
  const done = writing.filter((w) => recorded.has(w) && !gone.includes(w));
  // The outputs the records no longer point to: the previous ones (new outputs always get new keys),
  // and those of results dropped as stale.
  await ctx.store.removeBlobs([
    ...done.map((w) => w.doc?.extracted_blob),
    ...[...outputs].filter(([w]) => !done.includes(w)).map(([, k]) => k),
  ]);
  for (const w of done) {
    stats.fields += 1;
    stats.paragraphs += w.rows.length;
    if (w.outcome.status !== "PROCESSED" && w.outcome.status !== "EMPTY") stats.errors += 1;
  }
  return [...done, ...retrying];
}

/** The resource's language: set by the user, else the language of its largest processed field. */
function applyLanguages(res: ResourceDoc, results: FieldResult[]): void {
  const ranked = [...results].sort((a, b) => size(b) - size(a));
  const main =
    ranked.find((r) => r.outcome.language && !r.key.startsWith("a/"))?.outcome.language ??
    ranked.find((r) => r.outcome.language)?.outcome.language;
  if (main && !res.metadata.language) res.metadata.language = main;
  const all = new Set([...(res.metadata.languages ?? []), ...results.flatMap((r) => r.outcome.languages)]);
  if (all.size) res.metadata.languages = [...all];
}
const size = (r: FieldResult) => r.outcome.units.reduce((n, u) => n + u.paragraphs.length, 0);

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Record field statuses and the aggregate on the resource: a synchronous read-modify-write of the cached record. */
function commitStatuses(ctx: RunContext, rid: string, results: FieldResult[]): Promise<void> | undefined {
  const cur = ctx.store.resources.get(rid);
  if (!cur) return undefined;
  // Copies of what changes only: the cached record is never changed in place, and the rest (origin,
  // other fields) is shared with it, not duplicated string by string as a deep copy would. Copied with
  // Object.assign, not spread: a spread copy given a property after (a language, processed_at) gets a
  // hidden class of its own in V8, one per resource (40,000 of them at 40,000 notes).
  const next: ResourceDoc = Object.assign({}, cur, {
    metadata: Object.assign({}, cur.metadata),
    fields: Object.assign({}, cur.fields),
  });
  const applied: FieldResult[] = [];
  // The title the content gives, if the plan still holds (else whoever changed the title field enqueued it again).
  const plan = results.find((r) => r.retitle)?.retitle;
  if (plan && holds(ctx, rid, plan)) applyRetitle(next, plan);
  for (const r of results) {
    const was = next.fields[r.key];
    if (!was || was.hash !== r.hash || ctx.superseded(r.key)) continue;
    const f = Object.assign({}, was);
    next.fields[r.key] = f;
    if (r.outcome.transient) {
      // Still PENDING: the queue retries it at `retry.next`; the last error shows as a warning meanwhile.
      f.status = "PENDING";
      f.retry = nextRetry(ctx.retry, f.retry, r.outcome);
      if (r.outcome.error) f.error = { ...r.outcome.error, severity: "WARNING" };
      continue;
    }
    f.status = r.outcome.status;
    delete f.retry;
    if (r.outcome.error) f.error = r.outcome.error;
    else delete f.error;
    applied.push(r);
  }
  applyLanguages(next, applied);
  applyRelations(next, applied);
  next.metadata.status = aggregateStatus(next);
  // Only these three parts can differ from the record read.
  if (
    sameJson(next.fields, cur.fields) &&
    sameJson(next.metadata, cur.metadata) &&
    sameJson(next.field_relations, cur.field_relations)
  )
    return undefined;
  // Set with the statuses, in the same put (see ResourceDoc.processed_at); tasks' own fields do not count.
  if (applied.some((r) => !r.key.startsWith("t/da-"))) next.processed_at = new Date().toISOString();
  return ctx.store.resources.put(rid, next);
}

/** One resource of a batch: its run context and the fields to process. */
export interface BatchItem {
  ctx: RunContext;
  rid: string;
  fields: string[];
}

/** What a batch did to one of its resources: its counters, or the error that stopped it. */
export type BatchResult = { stats: RunStats } | { error: unknown };

/** Run one phase over the resources still going; a resource that throws is out of the batch with its error. */
async function phase<T>(live: number[], out: BatchResult[], fn: (i: number) => Promise<T> | T): Promise<Map<number, T>> {
  const got = new Map<number, T>();
  const settled = await Promise.allSettled(live.map(async (i) => fn(i)));
  settled.forEach((r, k) => {
    if (r.status === "fulfilled") got.set(live[k], r.value);
    else out[live[k]] = { error: r.reason };
  });
  live.splice(0, live.length, ...live.filter((i) => !("error" in out[i])));
  return got;
}

/**
 * Process the listed fields of many resources of one knowledge box together, phase by phase: every
 * resource is extracted, then all their paragraphs go to the store at once, then all their field
 * records, then all their statuses (the commit point of each). Each phase's writes are issued in the
 * same tick, so a batch of small documents costs a few commits of each table, not a few per document.
 * The order of a resource's writes, and so what a crash in between leaves (fields still PENDING,
 * processed again at the next start), is that of a run on its own.
 */
export async function processBatch(items: BatchItem[]): Promise<BatchResult[]> {
  const out: BatchResult[] = items.map(() => ({ stats: { fields: 0, paragraphs: 0, embedded: 0, errors: 0 } }));
  const stats = (i: number) => (out[i] as { stats: RunStats }).stats;
  const live = items.map((_, i) => i).filter((i) => items[i].ctx.store.resources.get(items[i].rid));
  const store = items[0]?.ctx.store;
  if (!store || !live.length) return out;
  // One read of the field records the batch processes (those just written come from memory).
  const docs = await store.fields.docs(
    live.flatMap((i) => items[i].fields.map((key) => [items[i].rid, fieldRecordKey(items[i].rid, key)] as const)),
  );
  const works = await phase(live, out, (i) => {
    const { ctx, rid, fields } = items[i];
    return fields.length ? extractAll(ctx, rid, fields, docs) : [];
  });
  await phase(live, out, (i) => indexAll(items[i].ctx, items[i].rid, works.get(i) ?? [], stats(i)));
  for (const i of live) {
    const { ctx, rid } = items[i];
    for (const w of works.get(i) ?? []) expireIfDue(ctx.retry, ctx.store.resources.get(rid)?.fields[w.key]?.retry, w.outcome);
  }
  const results = await phase(live, out, (i) => {
    const work = works.get(i) ?? [];
    return work.length ? write(items[i].ctx, items[i].rid, work, stats(i)) : [];
  });
  await phase(live, out, (i) => {
    const { ctx, rid } = items[i];
    if (ctx.store.resources.get(rid)) return commitStatuses(ctx, rid, results.get(i) ?? []);
  });
  return out;
}

/** Process the listed fields of a resource and settle its status. */
export async function processResource(ctx: RunContext, rid: string, fields: string[]): Promise<RunStats> {
  const [r] = await processBatch([{ ctx, rid, fields }]);
  if ("error" in r) throw r.error;
  return r.stats;
}
