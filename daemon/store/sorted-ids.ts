/** A position in (created, id) order: a document's creation time (ISO text) and its id. */
export type OrderKey = readonly [created: string, id: string];

/** `a` before `b`: by creation, then id (compared as text, as the processing status's cursor compares them). */
export const less = (ac: string, ai: string, bc: string, bi: string) => ac < bc || (ac === bc && ai < bi);

/** -1, 0 or 1 as (ac, ai) comes before, with or after (bc, bi). */
const compare = (ac: string, ai: string, bc: string, bi: string) => (less(ac, ai, bc, bi) ? -1 : less(bc, bi, ac, ai) ? 1 : 0);

/** Removed entries stay in place until they are this many more than an eighth of the live ones. */
const SLACK = 256;
/** An entry that goes further than this from the end waits for the next walk (moving the entries after it costs). */
const FAR = 1024;

/**
 * Ids in (created, id) order, kept up to date as they come and go: an id created last (nearly always)
 * is appended, one a little earlier is inserted where it belongs (a binary search, and a move of the
 * few entries after it), one far earlier (another daemon's commits, a reprocess of everything) waits
 * in `later`, sorted and merged in at the next walk. A removal leaves its entry in place (a
 * tombstone, skipped by walks): removals come in bulk (a sync deleting files) and mostly from the
 * front (the oldest resources are processed first), where `head` passes them by; the entries are
 * compacted once tombstones past it are many.
 *
 * Whether an entry is live is the owner's to say (`live(id, created)`: the document exists, was
 * created then, and belongs here), so that an id removed and added again has one entry, found by
 * its key. The owner calls `add` and `remove` only when that answer changes, after it changed.
 */
export class SortedIds {
  /** The ids, and their creation times (the same strings as the documents'), in order. */
  private ids: string[] = [];
  private created: string[] = [];
  /** Entries not yet in place (ids and creation times), in the order they came. */
  private laterIds: string[] = [];
  private laterCreated: string[] = [];
  /** How many entries are live. */
  private count = 0;
  /** Every entry before this one is a tombstone. */
  private head = 0;
  /** While loading, every entry waits in `later`, to be sorted once by `loaded`. */
  private loading: boolean;

  constructor(
    private readonly live: (id: string, created: string) => boolean,
    loading = false,
  ) {
    this.loading = loading;
  }

  /** Live entries. */
  get size(): number {
    return this.count;
  }

  /** End the loading: sort what came. */
  loaded(): void {
    this.loading = false;
    this.merge();
  }

  /**
   * Put the entries of `later` in place: sorted, each found by a binary search, and the entries
   * around them copied (a pass over the ids, reading no document: tombstones stay until a compaction).
   */
  private merge(): void {
    const { ids, created, laterIds, laterCreated } = this;
    if (!laterIds.length) return;
    const order = laterIds.map((_, i) => i);
    order.sort((a, b) => compare(laterCreated[a], laterIds[a], laterCreated[b], laterIds[b]));
    const outIds: string[] = [];
    const outCreated: string[] = [];
    let from = 0;
    // Where the old head lands, or the first new entry if it comes before.
    let head = -1;
    const copyTo = (end: number) => {
      for (; from < end; from++) {
        if (head < 0 && from >= this.head) head = outIds.length;
        outIds.push(ids[from]);
        outCreated.push(created[from]);
      }
    };
    for (const j of order) {
      const id = laterIds[j];
      const c = laterCreated[j];
      const at = this.find(c, id, from);
      copyTo(at);
      const last = outIds.length - 1;
      // Already in place (its tombstone), or added, removed and added again while waiting: once is enough.
      if ((ids[at] === id && created[at] === c) || (outIds[last] === id && outCreated[last] === c)) continue;
      if (head < 0) head = outIds.length;
      outIds.push(id);
      outCreated.push(c);
    }
    copyTo(ids.length);
    this.ids = outIds;
    this.created = outCreated;
    this.head = head < 0 ? outIds.length : head;
    this.laterIds = [];
    this.laterCreated = [];
  }

  /** Drop the tombstones (a look at each entry's document), once they have grown by a fraction since the last time. */
  private compact(): void {
    this.merge();
    let j = 0;
    for (let i = this.head; i < this.ids.length; i++) {
      if (!this.live(this.ids[i], this.created[i])) continue;
      this.ids[j] = this.ids[i];
      this.created[j] = this.created[i];
      j++;
    }
    this.ids.length = j;
    this.created.length = j;
    this.head = 0;
  }

  /** The first entry after `key` (from 0 without). */
  private after(key: OrderKey | undefined): number {
    if (!key) return 0;
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (less(key[0], key[1], this.created[mid], this.ids[mid])) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The entry of (created, id) if there is one, else where it would go (from `lo` on). */
  private find(created: string, id: string, lo = 0): number {
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (less(this.created[mid], this.ids[mid], created, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** An id (now live) created at `created`. */
  add(id: string, created: string): void {
    this.count++;
    const n = this.ids.length;
    if (!this.loading && (n === 0 || less(this.created[n - 1], this.ids[n - 1], created, id))) {
      this.ids.push(id);
      this.created.push(created);
      return;
    }
    const at = this.loading ? n : this.find(created, id);
    if (this.ids[at] === id && this.created[at] === created) {
      // Its tombstone (it was removed, and is back): live again where it was.
      this.head = Math.min(this.head, at);
    } else if (this.loading || n - at > FAR) {
      this.laterIds.push(id);
      this.laterCreated.push(created);
    } else {
      this.ids.splice(at, 0, id);
      this.created.splice(at, 0, created);
      this.head = Math.min(this.head, at);
    }
  }

  /** An id (no longer live here) created at `created`. */
  remove(id: string, created: string): void {
    this.count--;
    if (this.loading) return; // a load only adds
    const at = this.find(created, id);
    if (at === this.head && this.ids[at] === id) this.skip();
    // Tombstones past the head are skipped by every walk; those before it only take memory.
    const dead = this.ids.length + this.laterIds.length - this.count;
    if (dead - this.head > SLACK + (this.count >> 3) || dead > SLACK + this.count) this.compact();
  }

  /** Move `head` past the tombstones at the front. */
  private skip(): void {
    while (this.head < this.ids.length && !this.live(this.ids[this.head], this.created[this.head])) this.head++;
  }

  /** The live entries after `key` (all without), in order; the walk must end before the next change. */
  *walk(key?: OrderKey): Generator<OrderKey> {
    this.merge();
    for (let i = Math.max(this.head, this.after(key)); i < this.ids.length; i++) {
      if (this.live(this.ids[i], this.created[i])) yield [this.created[i], this.ids[i]];
    }
  }
}
