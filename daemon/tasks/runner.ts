/**
 * Runs tasks, one job at a time (the machine is small): a batch over a knowledge box's EXISTING
 * resources, or one resource just processed for a NEW-data task. A batch saves its resume point after
 * every resource, so a daemon stopped or killed mid-task goes on where it was at the next start.
 */
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import { type GeneratorSettings, resolveGenerator } from "../models/generate/registry.js";
import type { Generator } from "../models/generate/types.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbDoc, TaskDoc, TaskOutputDoc } from "../store/index.js";
import type { AssetService } from "./assets.js";
import { COMPACT_AFTER, type OfferJournal } from "./offers.js";
import { modelOf } from "./params.js";
import type { TaskContext, TaskDeps, TaskImpl, TaskOutput } from "./types.js";

/** The members of a task record the runner writes; the service writes the others. */
const RUNNER_FIELDS = [
  "status",
  "scheduled",
  "completed",
  "stopped",
  "failed",
  "scheduled_at",
  "completed_at",
  "stopped_at",
  "total",
  "handled_new",
] as const;

type Job = { kind: "batch"; id: string } | { kind: "new"; id: string; rid: string };

export interface RunnerDeps {
  tasks: DocTable<TaskDoc>;
  /** Processed resources handed to NEW-data tasks (the durable part of the queue). */
  offers: OfferJournal;
  /** Many hand-overs of a task ran: reconcile its journal (moves its mark, forgets done rows). */
  compact: (taskId: string) => void;
  outputs: (kbid: string) => Promise<DocTable<TaskOutputDoc>>;
  kbs: KbService;
  impls: ReadonlyMap<string, TaskImpl>;
  deps: TaskDeps;
  assets: AssetService;
  generation: GeneratorSettings;
  log: Log;
  /** A pause between two resources of a batch (KBOX_TASK_PAUSE_MS): keeps a long task from taking the machine. */
  pauseMs: number;
}

/** The generator a task uses and the method its record states (throws the registry's error for a bad name). */
export function taskGenerator(impl: TaskImpl, kb: KbDoc, params: Record<string, unknown>, settings: GeneratorSettings) {
  if (!impl.usesModel) return { generator: undefined, method: impl.offlineMethod };
  const lc = kb.learning_configuration;
  const gen = resolveGenerator(modelOf(params) ?? lc?.generative_model, {
    userKeys: lc?.user_keys as Record<string, unknown>,
    settings,
    configured: lc?.generative_model,
  });
  if (gen.kind !== "extractive") return { generator: gen as Generator | undefined, method: `model:${gen.id}` };
  return { generator: impl.name === "ask" ? gen : undefined, method: impl.offlineMethod };
}

export class TaskRunner {
  private readonly queue: Job[] = [];
  private current?: { id: string; kind: Job["kind"]; abort: AbortController };
  private pumping = false;
  private closing = false;

  constructor(private readonly d: RunnerDeps) {}

  /** Run (or go on with) a task's batch. */
  schedule(id: string): void {
    if (!this.queue.some((j) => j.kind === "batch" && j.id === id)) this.queue.push({ kind: "batch", id });
    void this.pump();
  }

  /** Hand one processing of a resource to a NEW-data task: journalled first, so a kill before it ran loses nothing. */
  async offer(task: TaskDoc, rid: string, processedAt: string | undefined): Promise<void> {
    if (await this.d.offers.add(task, rid, processedAt)) this.requeue(task.id, rid);
  }

  /** Queue a journalled offer again (at start). */
  requeue(id: string, rid: string): void {
    if (!this.queue.some((j) => j.kind === "new" && j.id === id && j.rid === rid)) this.queue.push({ kind: "new", id, rid });
    void this.pump();
  }

  /** Offers of a task not yet run on. */
  pending(id: string): number {
    return this.d.offers.pending(id).length;
  }

  /**
   * Stop a task's work: its running batch is aborted and its queued batch dropped; with `all`, its
   * NEW-data jobs too (a stop concerns the batch only: an ALL task keeps running on new resources).
   */
  cancel(id: string, all = true): void {
    for (let i = this.queue.length - 1; i >= 0; i--)
      if (this.queue[i].id === id && (all || this.queue[i].kind === "batch")) this.queue.splice(i, 1);
    if (this.current?.id === id && (all || this.current.kind === "batch")) this.current.abort.abort();
  }

  /** Forget a task's journalled offers (the task is deleted). */
  async dropOffers(id: string): Promise<void> {
    await this.d.offers.drop(id);
  }

  isRunning(id: string): boolean {
    return this.current?.id === id;
  }

  /** Cancel, and wait until the task's running job (if any) has saved and let go. */
  async cancelAndWait(id: string, all = true): Promise<void> {
    this.cancel(id, all);
    while (this.isRunning(id)) await new Promise((r) => setTimeout(r, 10));
  }

  /** Stop at the next resource; a running batch keeps status running, so the next start resumes it. */
  async close(): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    this.current?.abort.abort();
    while (this.pumping) await new Promise((r) => setTimeout(r, 20));
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let job = this.queue.shift(); job && !this.closing; job = this.queue.shift()) {
        const stored = this.d.tasks.get(job.id);
        if (!stored) {
          if (job.kind === "new") await this.d.offers.drop(job.id, job.rid);
          continue;
        }
        const doc: TaskDoc = { ...stored, done: [...stored.done], log: [...stored.log] };
        const abort = new AbortController();
        this.current = { id: doc.id, kind: job.kind, abort };
        try {
          if (job.kind === "batch") await this.batch(doc, abort.signal);
          else await this.one(doc, job.rid, abort.signal);
        } catch (e) {
          this.d.log.error(`task ${doc.task} ${doc.id}: ${(e as Error).message}`);
        } finally {
          this.current = undefined;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Save what the runner owns onto the latest record (enable, patch may have changed the rest meanwhile). */
  private async save(doc: TaskDoc): Promise<void> {
    const cur = this.d.tasks.get(doc.id);
    if (!cur) return; // deleted meanwhile
    const mine: Partial<TaskDoc> = {};
    for (const k of RUNNER_FIELDS) (mine as Record<string, unknown>)[k] = doc[k];
    await this.d.tasks.put(doc.id, {
      ...cur,
      ...mine,
      timestamp: new Date().toISOString(),
      done: [...doc.done],
      log: doc.log.slice(-200),
    });
  }

  private async context(doc: TaskDoc, signal: AbortSignal): Promise<{ ctx: TaskContext; impl: TaskImpl }> {
    const impl = this.d.impls.get(doc.task);
    if (!impl) throw new Error(`task ${doc.task} is not supported here`);
    const { kb, store } = await this.d.kbs.open(doc.kbid);
    const { generator } = taskGenerator(impl, kb, doc.parameters, this.d.generation);
    const ctx: TaskContext = {
      task: doc,
      kb,
      store,
      generator,
      deps: this.d.deps,
      signal,
      log: (line) => doc.log.push(`${new Date().toISOString()} ${line}`),
      asset: async (name, type, data) => void (await this.d.assets.add(store, doc.id, name, type, data)),
    };
    return { ctx, impl };
  }

  private async record(doc: TaskDoc, rid: string, out: TaskOutput | undefined): Promise<void> {
    if (!out) return;
    const table = await this.d.outputs(doc.kbid);
    const id = `${doc.id}/${rid}`;
    const prev = table.get(id);
    const merged: TaskOutputDoc = { ...prev, ...out, id, task_id: doc.id, rid };
    if (prev?.paragraph_labels && out.paragraph_labels) {
      merged.paragraph_labels = { ...prev.paragraph_labels };
      for (const [k, v] of Object.entries(out.paragraph_labels))
        merged.paragraph_labels[k] = [...new Set([...(prev.paragraph_labels[k] ?? []), ...v])];
    }
    await table.put(id, merged);
  }

  private async batch(doc: TaskDoc, signal: AbortSignal): Promise<void> {
    const { ctx, impl } = await this.context(doc, signal);
    const now = new Date().toISOString();
    Object.assign(doc, { status: "running", scheduled: true, scheduled_at: doc.scheduled_at ?? now, stopped: false });
    try {
      if (!doc.done.length) await impl.prepare?.(ctx);
      const rids = [...ctx.store.resources.values()].sort((a, b) => a.created.localeCompare(b.created)).map((r) => r.id);
      const done = new Set(doc.done);
      doc.total = rids.length;
      await this.save(doc);
      for (const rid of rids) {
        if (signal.aborted) break;
        if (done.has(rid)) continue;
        await this.record(doc, rid, await impl.run(ctx, rid));
        doc.done.push(rid);
        await this.save(doc);
        if (this.d.pauseMs) await new Promise((r) => setTimeout(r, this.d.pauseMs));
      }
      if (signal.aborted) {
        if (this.closing) return; // status stays running: resumed at the next start
        Object.assign(doc, { status: "stopped", stopped: true, stopped_at: new Date().toISOString() });
        ctx.log(`stopped after ${doc.done.length} of ${doc.total} resources`);
      } else {
        await impl.finish?.(ctx);
        Object.assign(doc, { status: "completed", completed: true, completed_at: new Date().toISOString() });
        ctx.log(`completed: ${doc.done.length} resources (${doc.method})`);
      }
    } catch (e) {
      if (this.closing) return;
      Object.assign(doc, { status: "failed", failed: true });
      ctx.log(`failed: ${(e as Error).message}`);
    }
    await this.save(doc);
  }

  /** Run a NEW-data task on one resource; its offer is marked done once the result is saved (pending when closing). */
  private async one(doc: TaskDoc, rid: string, signal: AbortSignal): Promise<void> {
    if (!doc.enabled) return void (await this.d.offers.drop(doc.id, rid));
    const processedAt = this.d.offers.get(doc.id, rid)?.processed_at;
    const { ctx, impl } = await this.context(doc, signal);
    try {
      await this.record(doc, rid, await impl.run(ctx, rid));
      doc.handled_new++;
    } catch (e) {
      if (this.closing) return; // the offer stays: run again at the next start
      ctx.log(`resource ${rid}: ${(e as Error).message}`);
    }
    await this.save(doc);
    if ((await this.d.offers.done(doc.id, rid, processedAt)) >= COMPACT_AFTER) this.d.compact(doc.id);
  }
}
