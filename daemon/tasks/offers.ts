/**
 * The journal of processed resources handed to NEW-data tasks (meta table `task_offers`). A row is
 * written before the job is queued and marked done once the task ran, so a kill before the run hands
 * the resource over again. The gap between processing's commit and the row is closed by the resource's
 * `processed_at` (written in the same put as its field statuses): `reconcile` finds resources processed
 * since the task's mark with no row for that processing, and then moves the mark and forgets done rows.
 */
import type { DocTable } from "../store/doc-table.js";
import type { ResourceDoc, TaskDoc, TaskOfferDoc } from "../store/index.js";

/** Done rows of a task after which the runner asks for a reconcile (keeps the table small). */
export const COMPACT_AFTER = 256;

/** The resources of a box, as the journal reads them. */
export interface ResourceSource {
  values(): Iterable<ResourceDoc>;
  get(id: string): ResourceDoc | undefined;
}

const keyOf = (taskId: string, rid: string) => `${taskId}/${rid}`;

export class OfferJournal {
  /** Rows marked done since the task's last reconcile (this run). */
  private readonly doneSince = new Map<string, number>();

  constructor(private readonly table: DocTable<TaskOfferDoc>) {}

  get(taskId: string, rid: string): TaskOfferDoc | undefined {
    return this.table.get(keyOf(taskId, rid));
  }

  /**
   * Journal a hand-over of one processing of a resource; false when that processing was already handed
   * over (nothing to queue). A pending row is kept (its job is queued or will be at start).
   */
  async add(task: TaskDoc, rid: string, processedAt: string | undefined): Promise<boolean> {
    const id = keyOf(task.id, rid);
    const row = this.table.get(id);
    if (row && !row.done) {
      // Already pending for this processing (its job is queued): a reconcile got there first.
      if (processedAt && row.processed_at === processedAt) return false;
      if (processedAt && (!row.processed_at || row.processed_at < processedAt))
        await this.table.put(id, { ...row, processed_at: processedAt });
      return true;
    }
    if (row?.done && processedAt && row.processed_at && row.processed_at >= processedAt) return false;
    const at = new Date().toISOString();
    await this.table.put(id, { id, task_id: task.id, kbid: task.kbid, rid, at, processed_at: processedAt });
    return true;
  }

  /** The task ran on the resource (for the processing it was handed); returns the task's done rows since its reconcile. */
  async done(taskId: string, rid: string, processedAt: string | undefined): Promise<number> {
    const row = this.table.get(keyOf(taskId, rid));
    // Processed again meanwhile: the row stays pending for the newer processing (its job is queued).
    if (!row || row.done || row.processed_at !== processedAt) return this.doneSince.get(taskId) ?? 0;
    await this.table.put(row.id, { ...row, done: true });
    const n = (this.doneSince.get(taskId) ?? 0) + 1;
    this.doneSince.set(taskId, n);
    return n;
  }

  /** Pending rows (of one task, or all), oldest first. */
  pending(taskId?: string): TaskOfferDoc[] {
    const rows = [...this.table.values()].filter((o) => !o.done && (!taskId || o.task_id === taskId));
    return rows.sort((a, b) => a.at.localeCompare(b.at));
  }

  async drop(taskId: string, rid?: string): Promise<void> {
    if (rid !== undefined) return void (await this.table.delete(keyOf(taskId, rid)));
    for (const o of [...this.table.values()]) if (o.task_id === taskId) await this.table.delete(o.id);
    this.doneSince.delete(taskId);
  }

  /**
   * The resources processed at or after the task's mark with no row for that processing: journalled now
   * (pending) and returned, to be queued. The mark then moves to the newest processing seen, and done
   * rows whose resource was last processed before it (or is gone) are forgotten.
   */
  async reconcile(task: TaskDoc, resources: ResourceSource): Promise<{ missed: string[]; mark: string }> {
    const from = task.new_mark ?? task.defined_at;
    let mark = from;
    const missed: [string, string][] = [];
    for (const res of resources.values()) {
      const p = res.processed_at;
      if (!p || p < from) continue;
      if (p > mark) mark = p;
      const row = this.get(task.id, res.id);
      if (row && (!row.done || (row.processed_at !== undefined && row.processed_at >= p))) continue;
      missed.push([res.id, p]);
    }
    for (const [rid, p] of missed) await this.add(task, rid, p);
    for (const o of [...this.table.values()]) {
      if (o.task_id !== task.id || !o.done) continue;
      const p = resources.get(o.rid)?.processed_at;
      if (!p || p < mark) await this.table.delete(o.id);
    }
    this.doneSince.set(task.id, 0);
    return { missed: missed.map(([rid]) => rid), mark };
  }
}
