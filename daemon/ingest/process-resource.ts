import type { ResourceStatus } from "../../src/api/common.js";
import { fieldKey } from "../resources/fields.js";
import type { FieldDoc, KbStore, ResourceDoc } from "../store/index.js";
import type { ParagraphRow } from "../store/paragraphs.js";
import { type VectorsetEmbedder, embedRows } from "./embed.js";
import { type FieldOutcome, fieldError, processField } from "./process-field.js";
import { refreshResource } from "./refresh.js";
import { buildRows } from "./rows.js";

/** What one run over a resource needs from the queue. */
export interface RunContext {
  store: KbStore;
  /** The knowledge box's vectorsets and embedders, loaded on first need (empty: keyword only). */
  embedders: () => Promise<VectorsetEmbedder[]>;
  /** True when the field was enqueued again since this run started: its result is stale. */
  superseded: (fieldKey: string) => boolean;
  signal: AbortSignal;
}

/** Counters of one run, for logs, status and benchmarks. */
export interface RunStats {
  fields: number;
  paragraphs: number;
  embedded: number;
  refreshed: number;
  errors: number;
}

interface FieldResult {
  key: string;
  hash: string | undefined;
  outcome: FieldOutcome;
}

/** Any ERROR makes the resource ERROR once nothing is pending; all EMPTY makes it EMPTY. */
export function aggregateStatus(res: ResourceDoc): ResourceStatus {
  const s = Object.values(res.fields).map((f) => f.status);
  if (s.includes("PENDING")) return "PENDING";
  if (s.includes("ERROR")) return "ERROR";
  if (s.length && s.every((x) => x === "EMPTY")) return "EMPTY";
  return "PROCESSED";
}

/** Is the field still the version this run read (resource and field present, same value, not re-enqueued)? */
function current(ctx: RunContext, rid: string, key: string, hash: string | undefined): boolean {
  const f = ctx.store.resources.get(rid)?.fields[key];
  return Boolean(f) && f?.hash === hash && !ctx.superseded(key);
}

async function indexRows(ctx: RunContext, res: ResourceDoc, doc: FieldDoc, outcome: FieldOutcome, stats: RunStats): Promise<ParagraphRow[]> {
  if (outcome.status !== "PROCESSED") return [];
  const rows = buildRows(res, doc.type, doc.id, outcome.units, outcome.mime);
  try {
    const embedders = await ctx.embedders();
    stats.embedded += await embedRows(ctx.store.paragraphs, res.id, fieldKey(doc.type, doc.id), rows, embedders, ctx.signal);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const e = fieldError(err);
    Object.assign(outcome, { status: "ERROR", error: { ...e, code_str: "EMBEDDING_FAILED", body: `Embedding failed: ${(err as Error).message}` } });
    return [];
  }
  return rows;
}

/** Extract, split, embed and index one field; undefined when the work became moot (deleted or superseded). */
async function runField(ctx: RunContext, rid: string, key: string, stats: RunStats): Promise<FieldResult | undefined> {
  const summary = ctx.store.resources.get(rid)?.fields[key];
  if (!summary) return undefined;
  const hash = summary.hash;
  const doc = await ctx.store.fields.get(`${rid}/${key}`);
  const outcome: FieldOutcome = doc
    ? await processField(doc, ctx.store.blobs, ctx.signal)
    : { status: "ERROR", error: fieldError(new Error("the field's value is missing")), units: [], languages: [] };
  const res = ctx.store.resources.get(rid);
  if (!res || !current(ctx, rid, key, hash)) return undefined;
  const rows = doc ? await indexRows(ctx, res, doc, outcome, stats) : [];
  if (!current(ctx, rid, key, hash)) return undefined;
  // The paragraphs are one atomic commit; the field status (the commit point of the work) comes after,
  // so a crash in between leaves the field PENDING and it is simply processed again.
  await ctx.store.paragraphs.replaceField(rid, key, rows);
  if (!ctx.store.resources.get(rid)) {
    await ctx.store.paragraphs.deleteResource(rid); // deleted while we wrote: leave no orphans
    return undefined;
  }
  if (!ctx.store.resources.get(rid)?.fields[key]) {
    await ctx.store.paragraphs.replaceField(rid, key, []);
    return undefined;
  }
  const fresh = (await ctx.store.fields.get(`${rid}/${key}`)) ?? doc;
  if (fresh) {
    const next: FieldDoc = { ...fresh, extracted: outcome.extracted };
    if (outcome.error) next.errors = [outcome.error];
    else delete next.errors;
    if (!outcome.extracted) delete next.extracted;
    await ctx.store.fields.put(`${rid}/${key}`, rid, next);
  }
  stats.fields += 1;
  stats.paragraphs += rows.length;
  if (outcome.status === "ERROR") stats.errors += 1;
  return { key, hash, outcome };
}

/** The resource's language: set by the user, else the language of its largest processed field. */
function applyLanguages(res: ResourceDoc, results: FieldResult[]): void {
  const ranked = [...results].sort((a, b) => size(b) - size(a));
  const main = ranked.find((r) => r.outcome.language && !r.key.startsWith("a/"))?.outcome.language ?? ranked.find((r) => r.outcome.language)?.outcome.language;
  if (main && !res.metadata.language) res.metadata.language = main;
  const all = new Set([...(res.metadata.languages ?? []), ...results.flatMap((r) => r.outcome.languages)]);
  if (all.size) res.metadata.languages = [...all];
}
const size = (r: FieldResult) => r.outcome.units.reduce((n, u) => n + u.paragraphs.length, 0);

/** Record field statuses and the aggregate on the resource: a synchronous read-modify-write of the cached record. */
function commitStatuses(ctx: RunContext, rid: string, results: FieldResult[]): Promise<void> | undefined {
  const cur = ctx.store.resources.get(rid);
  if (!cur) return undefined;
  const next = structuredClone(cur);
  const applied: FieldResult[] = [];
  for (const r of results) {
    const f = next.fields[r.key];
    if (!f || f.hash !== r.hash || ctx.superseded(r.key)) continue;
    f.status = r.outcome.status;
    if (r.outcome.error) f.error = r.outcome.error;
    else delete f.error;
    applied.push(r);
  }
  applyLanguages(next, applied);
  next.metadata.status = aggregateStatus(next);
  if (JSON.stringify(next) === JSON.stringify(cur)) return undefined;
  return ctx.store.resources.put(rid, next);
}

/** Process the listed fields of a resource, refresh the denormalised columns of the others, and settle its status. */
export async function processResource(ctx: RunContext, rid: string, fields: string[], refresh: boolean): Promise<RunStats> {
  const stats: RunStats = { fields: 0, paragraphs: 0, embedded: 0, refreshed: 0, errors: 0 };
  const results: FieldResult[] = [];
  for (const key of fields) {
    if (!ctx.store.resources.get(rid)) return stats;
    const r = await runField(ctx, rid, key, stats);
    if (r) results.push(r);
  }
  const res = ctx.store.resources.get(rid);
  if (!res) return stats;
  if (refresh) stats.refreshed = await refreshResource(ctx.store, res, new Set(fields));
  await commitStatuses(ctx, rid, results);
  return stats;
}
