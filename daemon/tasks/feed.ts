/**
 * NEW-data tasks fed by the processing queue: each processed resource is handed to every enabled
 * NEW/ALL task of its box through the offers journal, and `reconcile` hands over what a kill between
 * processing's commit and the journal write left out (see OfferJournal).
 */
import type { KbService } from "../kbs/service.js";
import type { Log } from "../lifecycle/logger.js";
import type { DocTable } from "../store/doc-table.js";
import type { TaskDoc } from "../store/index.js";
import type { OfferJournal } from "./offers.js";
import { hasOngoing } from "./records.js";
import type { TaskRunner } from "./runner.js";

export interface FeedDeps {
  tasks: DocTable<TaskDoc>;
  offers: OfferJournal;
  kbs: Pick<KbService, "open">;
  /** Its hand-over (journal, then queue) and its queue. */
  runner: Pick<TaskRunner, "offer" | "requeue">;
  log: Log;
}

const fed = (t: TaskDoc) => t.enabled && hasOngoing(t);

export class NewDataFeed {
  constructor(private readonly d: FeedDeps) {}

  /** At start: the journalled hand-overs not run yet, then those the journal missed. */
  resume(): void {
    for (const o of this.d.offers.pending()) this.d.runner.requeue(o.task_id, o.rid);
    for (const t of [...this.d.tasks.values()]) if (fed(t)) void this.reconcile(t.id);
  }

  /** The processing queue finished a resource: hand it to each enabled NEW-data task of its box. */
  async processed(kbid: string, rid: string, fields: string[]): Promise<void> {
    // Fields a task generated itself (da-*) do not trigger tasks again.
    if (fields.length && fields.every((f) => f.startsWith("t/da-"))) return;
    const mine = [...this.d.tasks.values()].filter((t) => t.kbid === kbid && fed(t));
    if (!mine.length) return;
    const processedAt = (await this.d.kbs.open(kbid)).store.resources.get(rid)?.processed_at;
    for (const t of mine) await this.d.runner.offer(t, rid, processedAt);
  }

  /**
   * Hand over what the journal missed (a resource processed since the task's mark with no row for that
   * processing: a kill between processing's commit and the journal write), then move the task's mark.
   */
  async reconcile(id: string): Promise<string[]> {
    try {
      const t = this.d.tasks.get(id);
      if (!t || !fed(t)) return [];
      const { store } = await this.d.kbs.open(t.kbid);
      const { missed, mark } = await this.d.offers.reconcile(t, store.resources);
      for (const rid of missed) this.d.runner.requeue(id, rid);
      if (missed.length) this.d.log(`task ${t.task} ${id}: ${missed.length} processed resource(s) handed over late`);
      const cur = this.d.tasks.get(id);
      if (cur && cur.new_mark !== mark) await this.d.tasks.put(id, { ...cur, new_mark: mark });
      return missed;
    } catch (e) {
      this.d.log.error(`task ${id}: cannot reconcile its hand-overs: ${(e as Error).message}`);
      return [];
    }
  }
}
