import type { DocObserver } from "./doc-table.js";
import type { ResourceDoc } from "./records.js";
import { less, type OrderKey, SortedIds } from "./sorted-ids.js";

/** What the index reads of the resources table: its cached documents, and their changes. */
export interface ObservedResources {
  get(id: string): ResourceDoc | undefined;
  observe(fn: DocObserver<ResourceDoc>): void;
}

/** A page of resources in (created, id) order, and whether more follow it. */
export interface ResourcePage {
  resources: ResourceDoc[];
  more: boolean;
}

/**
 * The resources of a knowledge box by status and in creation order, kept up to date with the
 * resources table's cache: the processing status is polled (`kbox add --wait`, scripts) and must not
 * read every resource of a box of 100,000 each time. Counts by status cost a look at each status; a
 * page, a binary search and a walk of the resources it returns (of those statuses).
 *
 * Holds the ids and creation times of the documents (the same strings), never copies of them.
 */
export class ResourceIndex {
  /** Every resource, in (created, id) order. */
  private readonly all: SortedIds;
  /** The resources of each status, in (created, id) order (a status seen once keeps its empty order). */
  private readonly byStatus = new Map<string, SortedIds>();
  private loading = true;

  constructor(private readonly table: ObservedResources) {
    this.all = new SortedIds((id, created) => table.get(id)?.created === created, true);
    table.observe((id, before, after) => this.changed(id, before, after));
    this.loading = false;
    this.all.loaded();
    for (const order of this.byStatus.values()) order.loaded();
  }

  /** The order of one status (made on first sight). */
  private status(status: string): SortedIds {
    let order = this.byStatus.get(status);
    if (!order) {
      const table = this.table;
      order = new SortedIds((id, created) => {
        const r = table.get(id);
        return r?.created === created && r.metadata.status === status;
      }, this.loading);
      this.byStatus.set(status, order);
    }
    return order;
  }

  /** A document changed in the cache (it is never changed in place: `before` is the old version). */
  private changed(id: string, before: ResourceDoc | undefined, after: ResourceDoc | undefined): void {
    const sameCreated = before && after && before.created === after.created;
    // Most puts change fields, not the status: nothing to do.
    if (sameCreated && before.metadata.status === after.metadata.status) return;
    if (before) {
      if (!sameCreated) this.all.remove(id, before.created);
      this.status(before.metadata.status).remove(id, before.created);
    }
    if (after) {
      if (!sameCreated) this.all.add(id, after.created);
      this.status(after.metadata.status).add(id, after.created);
    }
  }

  /** How many resources are in each status (those with none left out). */
  totals(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [status, order] of this.byStatus) if (order.size) out[status] = order.size;
    return out;
  }

  /**
   * The first `limit` resources after `after` (a cursor's key) in (created, id) order, of these
   * statuses (all when none).
   */
  page(statuses: readonly string[] | undefined, after: OrderKey | undefined, limit: number): ResourcePage {
    const orders = statuses?.length ? [...new Set(statuses)].flatMap((s) => this.byStatus.get(s) ?? []) : [this.all];
    const keys = merged(
      orders.map((o) => o.walk(after)),
      limit + 1,
    );
    const resources = keys.slice(0, limit).map(([, id]) => this.table.get(id) as ResourceDoc);
    return { resources, more: keys.length > limit };
  }
}

/** The first `n` keys of several ordered walks (disjoint: a resource has one status), in order. */
function merged(walks: Generator<OrderKey>[], n: number): OrderKey[] {
  const heads = walks.map((w) => w.next());
  const out: OrderKey[] = [];
  while (out.length < n) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h.done) continue;
      const b = best < 0 ? undefined : (heads[best].value as OrderKey);
      if (!b || less(h.value[0], h.value[1], b[0], b[1])) best = i;
    }
    if (best < 0) break;
    out.push(heads[best].value as OrderKey);
    heads[best] = walks[best].next();
  }
  for (const w of walks) w.return(undefined);
  return out;
}
