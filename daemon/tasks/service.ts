import { randomUUID } from "node:crypto";
import type { StartTask, TaskRecord } from "../../src/api/tasks.js";
import { conflict, invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { ModelNameError } from "../models/generate/registry.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbDoc, Store, TaskDoc, TaskOfferDoc, TaskOutputDoc } from "../store/index.js";
import type { AssetService } from "./assets.js";
import { NewDataFeed } from "./feed.js";
import { OfferJournal } from "./offers.js";
import { hasBatch, hasOngoing, response, taskRecord } from "./records.js";
import { UNSUPPORTED } from "./registry.js";
import { type RunnerDeps, TaskRunner, taskGenerator } from "./runner.js";
import type { TaskImpl } from "./types.js";

/** What the service needs beside the runner's collaborators. */
export interface TaskServiceDeps extends Omit<RunnerDeps, "tasks" | "offers" | "outputs" | "compact"> {
  store: Store;
  kbs: KbService;
  account: (kb: KbDoc) => string;
}

/**
 * Tasks on knowledge boxes: start, inspect, the lifecycle rules (only tasks on EXISTING data stop and
 * restart; only tasks on NEW data are enabled, disabled and patched; ALL tasks have both parts; a
 * request against the rules is 409), delete with cleanup, and NEW-data tasks fed by the processing queue.
 */
export class TaskService {
  private readonly outputs = new Map<string, Promise<DocTable<TaskOutputDoc>>>();
  readonly runner: TaskRunner;
  private readonly feed: NewDataFeed;

  private constructor(
    private readonly tasks: DocTable<TaskDoc>,
    offers: DocTable<TaskOfferDoc>,
    private readonly d: TaskServiceDeps,
  ) {
    const journal = new OfferJournal(offers);
    this.runner = new TaskRunner({
      ...d,
      tasks,
      offers: journal,
      outputs: (kbid) => this.outputsOf(kbid),
      compact: (id) => void this.feed.reconcile(id),
    });
    this.feed = new NewDataFeed({ tasks, offers: journal, kbs: d.kbs, runner: this.runner, log: d.log });
  }

  static async open(d: TaskServiceDeps): Promise<TaskService> {
    return new TaskService(await d.store.metaTable<TaskDoc>("tasks"), await d.store.metaTable<TaskOfferDoc>("task_offers"), d);
  }

  private outputsOf(kbid: string): Promise<DocTable<TaskOutputDoc>> {
    let t = this.outputs.get(kbid);
    if (!t) {
      t = this.d.kbs.open(kbid).then(({ store }) => store.docTable<TaskOutputDoc>("task_outputs"));
      this.outputs.set(kbid, t);
      t.catch(() => this.outputs.delete(kbid));
    }
    return t;
  }

  /**
   * Resume the batches a stop or a kill interrupted, then the resources handed to NEW-data tasks that
   * they had not run on yet (the offers journal), then those a kill left unjournalled (reconcile); call
   * once at start.
   */
  resume(): void {
    for (const t of this.tasks.values())
      if (t.status === "running" || t.status === "scheduled") {
        t.log.push(`${new Date().toISOString()} resumed after a restart at ${t.done.length} of ${t.total}`);
        this.runner.schedule(t.id);
      }
    this.feed.resume();
  }

  /** The processing queue finished a resource: hand it to each enabled NEW-data task of its box. */
  processed(kbid: string, rid: string, fields: string[]): Promise<void> {
    return this.feed.processed(kbid, rid, fields);
  }

  async dropKb(kbid: string): Promise<void> {
    for (const t of [...this.tasks.values()].filter((x) => x.kbid === kbid)) {
      await this.runner.cancelAndWait(t.id);
      await this.runner.dropOffers(t.id);
      await this.tasks.delete(t.id);
    }
    this.outputs.delete(kbid);
  }

  private impl(name: string): TaskImpl {
    const impl = this.d.impls.get(name);
    if (!impl)
      throw invalid([
        {
          type: "value_error",
          loc: ["body", "name"],
          msg: `${UNSUPPORTED[name] ?? `${name} is not a task`}: not supported here`,
          input: name,
        },
      ]);
    return impl;
  }

  private require(kbid: string, id: string): TaskDoc {
    const t = this.tasks.get(id);
    if (!t || t.kbid !== this.d.kbs.require(kbid).uuid) throw notFound(`Task ${id} not found`);
    return t;
  }

  private view(d: TaskDoc): TaskRecord {
    const r = taskRecord(d, this.d.impls.get(d.task)?.dataAugmentation ?? false);
    if (hasOngoing(d)) r.progress.new_pending = this.runner.pending(d.id);
    return r;
  }

  list(kbid: string, count = 10) {
    const kb = this.d.kbs.require(kbid);
    const mine = [...this.tasks.values()]
      .filter((t) => t.kbid === kb.uuid)
      .sort((a, b) => b.defined_at.localeCompare(a.defined_at));
    const defs = [...this.d.impls.values()].map((t) => ({
      name: t.name,
      data_augmentation: t.dataAugmentation,
      description: t.description,
      can_cleanup: t.canCleanup,
      supported: true,
      validation: t.validation,
    }));
    for (const [name, why] of Object.entries(UNSUPPORTED))
      defs.push({ name, data_augmentation: false, description: why, can_cleanup: false, supported: false, validation: {} });
    return {
      tasks: defs,
      running: mine.filter((t) => hasBatch(t) && ["running", "scheduled"].includes(t.status)).map((t) => this.view(t)),
      configs: mine.filter(hasOngoing).map((t) => this.view(t)),
      done: mine
        .filter((t) => hasBatch(t) && ["completed", "stopped", "failed"].includes(t.status))
        .slice(0, count)
        .map((t) => this.view(t)),
    };
  }

  async start(kbid: string, body: StartTask, user: string) {
    const kb = this.d.kbs.require(kbid);
    const base = body.uuid_task ? this.require(kb.uuid, body.uuid_task) : undefined;
    const impl = this.impl(body.name);
    if (!impl.applies.includes(body.apply))
      throw invalid([
        {
          type: "value_error",
          loc: ["body", "apply"],
          msg: `${impl.name} runs on ${impl.applies.join(" or ")} data`,
          input: body.apply,
        },
      ]);
    const parameters = body.parameters ?? base?.parameters ?? {};
    impl.check(parameters);
    let method: string;
    try {
      method = taskGenerator(impl, kb, parameters, this.d.generation).method;
    } catch (e) {
      if (!(e instanceof ModelNameError)) throw e;
      throw invalid([
        { type: "value_error", loc: ["body", "parameters", "llm", "model"], msg: e.message, input: parameters.llm },
      ]);
    }
    const now = new Date().toISOString();
    const doc: TaskDoc = {
      id: randomUUID().replace(/-/g, ""),
      task: impl.name,
      kbid: kb.uuid,
      account_id: this.d.account(kb),
      user_id: user,
      parameters,
      apply: body.apply,
      enabled: body.apply === "EXISTING" ? false : (body.enabled ?? true),
      status: body.apply === "NEW" ? "not_running" : "scheduled",
      timestamp: now,
      defined_at: now,
      scheduled: body.apply !== "NEW",
      completed: false,
      stopped: false,
      failed: false,
      scheduled_at: body.apply === "NEW" ? null : now,
      completed_at: null,
      stopped_at: null,
      retries: 0,
      method,
      done: [],
      total: body.apply === "NEW" ? 0 : (await this.d.kbs.open(kb.uuid)).store.resources.size,
      handled_new: 0,
      log: [`${now} defined on ${body.apply} data (${method})`],
      cleanup_parent_task_id: base?.id ?? null,
    };
    await this.tasks.put(doc.id, doc);
    if (hasBatch(doc)) this.runner.schedule(doc.id);
    return response(doc);
  }

  inspect(kbid: string, id: string) {
    const t = this.require(kbid, id);
    const v = this.view(t);
    return { ...(hasBatch(t) ? { request: v } : {}), ...(hasOngoing(t) ? { config: v } : {}) };
  }

  worker(kbid: string, id: string): TaskRecord {
    return this.view(this.require(kbid, id));
  }

  async stop(kbid: string, id: string) {
    const t = this.require(kbid, id);
    if (!hasBatch(t))
      throw conflict(`Task ${id} runs on NEW data only: disable it instead (stop applies to tasks on EXISTING data)`);
    if (!["running", "scheduled"].includes(t.status)) throw conflict(`Task ${id} is not running (status ${t.status})`);
    await this.runner.cancelAndWait(id, false);
    const cur = this.require(kbid, id);
    if (cur.status !== "stopped") {
      const now = new Date().toISOString();
      await this.tasks.put(id, { ...cur, status: "stopped", stopped: true, stopped_at: now, timestamp: now });
    }
    return response(this.require(kbid, id));
  }

  async restart(kbid: string, id: string) {
    const t = this.require(kbid, id);
    if (!hasBatch(t)) throw conflict(`Task ${id} runs on NEW data only: restart applies to tasks on EXISTING data`);
    await this.runner.cancelAndWait(id, false);
    const cur = this.require(kbid, id);
    const now = new Date().toISOString();
    await this.tasks.put(id, {
      ...cur,
      status: "scheduled",
      scheduled: true,
      completed: false,
      stopped: false,
      failed: false,
      scheduled_at: now,
      completed_at: null,
      stopped_at: null,
      retries: cur.retries + 1,
      done: [],
      timestamp: now,
      log: [...cur.log, `${now} restarted`],
    });
    this.runner.schedule(id);
    return response(this.require(kbid, id));
  }

  async enable(kbid: string, id: string, enabled: boolean): Promise<Record<string, never>> {
    const t = this.require(kbid, id);
    if (!hasOngoing(t)) throw conflict(`Task ${id} runs on EXISTING data only: enable and disable apply to tasks on NEW data`);
    // Resources processed while it was disabled are not its NEW data: its mark starts now.
    const now = new Date().toISOString();
    await this.tasks.put(id, { ...t, enabled, timestamp: now, ...(enabled && !t.enabled ? { new_mark: now } : {}) });
    return {};
  }

  async patch(kbid: string, id: string, parameters: Record<string, unknown>): Promise<TaskRecord> {
    const t = this.require(kbid, id);
    if (!hasOngoing(t)) throw conflict(`Task ${id} runs on EXISTING data only: its parameters change only for tasks on NEW data`);
    this.impl(t.task).check(parameters);
    const next = { ...t, parameters, timestamp: new Date().toISOString() };
    await this.tasks.put(id, next);
    return this.view(next);
  }

  /** Remove what the task wrote (labels, question answers, generated fields, assets). */
  async cleanup(kbid: string, id: string) {
    const t = this.require(kbid, id);
    await this.runner.cancelAndWait(id);
    await this.runner.dropOffers(id);
    // What was processed before is not handed over again at the next start: its mark starts now.
    const cur = this.tasks.get(id);
    if (cur) await this.tasks.put(id, { ...cur, new_mark: new Date().toISOString() });
    const impl = this.d.impls.get(t.task);
    const { kb, store } = await this.d.kbs.open(t.kbid);
    const outputs = await this.outputsOf(t.kbid);
    const ctx = {
      task: t,
      kb,
      store,
      deps: this.d.deps,
      signal: new AbortController().signal,
      log: () => undefined,
      asset: async () => undefined,
    };
    for (const out of [...outputs.values()].filter((o) => o.task_id === id)) {
      await impl?.cleanup?.(ctx, out);
      await outputs.delete(out.id);
    }
    await this.d.assets.dropTask((k) => this.d.kbs.open(k).then((x) => x.store), id);
    return this.inspect(kbid, id);
  }

  async delete(kbid: string, id: string, cleanup: boolean): Promise<Record<string, never>> {
    this.require(kbid, id);
    if (cleanup) await this.cleanup(kbid, id);
    else {
      await this.runner.cancelAndWait(id);
      await this.runner.dropOffers(id);
    }
    await this.tasks.delete(id);
    return {};
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
