/** A position in (created, id) order: a document's creation time (ISO text) and its id. */
export type OrderKey = readonly [created: string, id: string];

/** `a` before `b`: by creation, then id (compared as text, as the processing status's cursor compares them). */
const less = (ac: string, ai: string, bc: string, bi: string) => ac < bc || (ac === bc && ai < bi);

/** Removed entries stay in place until they are this many more than the live ones past the first live one. */
const SLACK = 256;

/**
 * Ids in (created, id) order, kept up to date as they come and go: an id created last (nearly always)
 * is appended, an earlier one is inserted where it belongs (a binary search, and a move of the
 * entries after it). A removal leaves its entry in place (a tombstone, skipped by walks): removals
 * come in bulk (a sync deleting files) and mostly from the front (the oldest resources are processed
 * first), where `head` passes them by; the array is compacted once tombstones past it are many.
 *
 * Whether an entry is live is the owner's to say (`live(id, created)`: the document exists, was
 * created then, and belongs here), so that an id removed and added again has one entry, found by
 * its key. The owner calls `add` and `remove` only when that answer changes, after it changed.
 */
export class SortedIds {
  /** The ids, and their creation times (the same strings as the documents'), in order. */
  private ids: string[] = [];
  private created: string[] = [];
  /** How many entries are live. */
  private count = 0;
  /** Every entry before this one is a tombstone. */
  private head = 0;
  /** While loading, entries are appended as they come and sorted once by `sort`. */
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

  /** End the loading: sort what was appended. */
  sort(): void {
    if (!this.loading) return;
    this.loading = false;
    const order = this.ids.map((_, i) => i);
    const { ids, created } = this;
    order.sort((a, b) => (less(created[a], ids[a], created[b], ids[b]) ? -1 : 1));
    this.ids = order.map((i) => ids[i]);
    this.created = order.map((i) => created[i]);
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

  /** The entry of (created, id) if there is one, else where it would go. */
  private find(created: string, id: string): number {
    let lo = 0;
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
    if (this.loading || n === 0 || less(this.created[n - 1], this.ids[n - 1], created, id)) {
      this.ids.push(id);
      this.created.push(created);
      return;
    }
    const at = this.find(created, id);
    // Its tombstone (it was removed, and is back): live again where it was.
    if (this.ids[at] !== id || this.created[at] !== created) {
      this.ids.splice(at, 0, id);
      this.created.splice(at, 0, created);
    }
    this.head = Math.min(this.head, at);
  }

  /** An id (no longer live here) created at `created`. */
  remove(id: string, created: string): void {
    this.count--;
    if (this.loading) return; // a load only adds
    if (this.find(created, id) === this.head) this.skip();
    const dead = this.ids.length - this.count;
    if (dead - this.head > SLACK + (this.count >> 3) || dead > SLACK + this.count) this.compact();
  }

  /** Move `head` past the tombstones at the front. */
  private skip(): void {
    while (this.head < this.ids.length && !this.live(this.ids[this.head], this.created[this.head])) this.head++;
  }

  /** Drop the tombstones: a pass over the entries, once they have grown by a fraction since the last. */
  private compact(): void {
    let j = 0;
    for (let i = 0; i < this.ids.length; i++) {
      if (!this.live(this.ids[i], this.created[i])) continue;
      this.ids[j] = this.ids[i];
      this.created[j] = this.created[i];
      j++;
    }
    this.ids.length = j;
    this.created.length = j;
    this.head = 0;
  }

  /** The live entries after `key` (all without), in order; the walk must end before the next change. */
  *walk(key?: OrderKey): Generator<OrderKey> {
    this.sort();
    for (let i = Math.max(this.head, this.after(key)); i < this.ids.length; i++) {
      if (this.live(this.ids[i], this.created[i])) yield [this.created[i], this.ids[i]];
    }
  }
}
