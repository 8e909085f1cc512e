import type { DocObserver } from "../../daemon/store/doc-table.js";
import type { ResourceDoc } from "../../daemon/store/records.js";

/** A deterministic generator (mulberry32): a failure replays. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The documents in a Map, as the DocTable's cache holds them, telling observers of every change. */
export class MemoryTable {
  readonly docs = new Map<string, ResourceDoc>();
  private readonly observers: DocObserver<ResourceDoc>[] = [];
  get(id: string) {
    return this.docs.get(id);
  }
  observe(fn: DocObserver<ResourceDoc>) {
    for (const [id, d] of this.docs) fn(id, undefined, d);
    this.observers.push(fn);
  }
  set(id: string, d: ResourceDoc | undefined) {
    const before = this.docs.get(id);
    if (d) this.docs.set(id, d);
    else this.docs.delete(id);
    for (const fn of this.observers) fn(id, before, d);
  }
}
