/**
 * In-memory timers of the fields waiting for a retry. They are derived from the records (a PENDING
 * field with `retry.next`), so they are rebuilt by the queue's start-up scan after a restart.
 */
interface Timer {
  kbid: string;
  rid: string;
  field: string;
  at: number;
  handle: NodeJS.Timeout;
}

import type { ResourceDoc } from "../store/index.js";

const keyOf = (kbid: string, rid: string, field: string) => `${kbid}/${rid}/${field}`;

/** Timers of the fields waiting for a retry, by knowledge box, resource and field. */
export class RetryTimers {
  private readonly timers = new Map<string, Timer>();

  /** Call `fire` at `at` (now if past); replaces the field's previous timer. */
  schedule(kbid: string, rid: string, field: string, at: number, fire: () => void): void {
    const k = keyOf(kbid, rid, field);
    const prev = this.timers.get(k);
    if (prev?.at === at) return;
    if (prev) clearTimeout(prev.handle);
    const handle = setTimeout(
      () => {
        this.timers.delete(k);
        fire();
      },
      Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1),
    );
    handle.unref();
    this.timers.set(k, { kbid, rid, field, at, handle });
  }

  /**
   * Schedule the fields of a resource record that wait for a retry (PENDING with `retry.next`), except
   * those `skip` says are queued already; returns their keys.
   */
  fromRecord(kbid: string, res: ResourceDoc, skip: (field: string) => boolean, fire: (field: string) => void): string[] {
    const out: string[] = [];
    for (const [field, f] of Object.entries(res.fields)) {
      if (f.status !== "PENDING" || !f.retry || skip(field)) continue;
      this.schedule(kbid, res.id, field, Date.parse(f.retry.next), () => fire(field));
      out.push(field);
    }
    return out;
  }

  /** Cancel the timers of some fields of a resource (all of them without `fields`). */
  cancel(kbid: string, rid: string, fields?: Iterable<string>): void {
    const keys = fields
      ? [...fields].map((f) => keyOf(kbid, rid, f))
      : [...this.timers.keys()].filter((k) => k.startsWith(`${kbid}/${rid}/`));
    for (const k of keys) {
      const t = this.timers.get(k);
      if (t) clearTimeout(t.handle);
      this.timers.delete(k);
    }
  }

  /** Cancel every timer of a knowledge box (all of them without `kbid`). */
  clear(kbid?: string): void {
    for (const [k, t] of this.timers) {
      if (kbid && t.kbid !== kbid) continue;
      clearTimeout(t.handle);
      this.timers.delete(k);
    }
  }

  /** Is a retry of this resource scheduled? */
  has(kbid: string, rid: string): boolean {
    for (const t of this.timers.values()) if (t.kbid === kbid && t.rid === rid) return true;
    return false;
  }

  /** Resources and fields waiting for a retry, for one knowledge box or all. */
  counts(kbid?: string): { resources: number; fields: number } {
    const mine = [...this.timers.values()].filter((t) => !kbid || t.kbid === kbid);
    return { resources: new Set(mine.map((t) => `${t.kbid}/${t.rid}`)).size, fields: mine.length };
  }
}
