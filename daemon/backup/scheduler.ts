import { rm } from "node:fs/promises";
import { notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { type Log, silentLog } from "../lifecycle/logger.js";
import type { DocTable } from "../store/doc-table.js";
import type { Store } from "../store/index.js";
import type { BackupService } from "./service.js";
import type { ScheduleDoc } from "./types.js";

/** Exports are for download: their archives are removed after a day. */
const EXPORT_TTL_MS = 24 * 3600_000;
/** The timer never sleeps longer than this, so a changed clock or a new schedule is noticed. */
const MAX_SLEEP_MS = 60_000;

/**
 * Periodic backups per knowledge box, with retention of the last N scheduled backups. One timer
 * for all schedules, sleeping until the next one is due; backups run one after another.
 */
export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly backups: BackupService,
    private readonly kbs: KbService,
    private readonly schedules: DocTable<ScheduleDoc>,
    private readonly log: Log,
  ) {}

  static async open(store: Store, kbs: KbService, backups: BackupService, log: Log = silentLog): Promise<BackupScheduler> {
    const s = new BackupScheduler(backups, kbs, await store.metaTable<ScheduleDoc>("backup_schedules"), log);
    kbs.onDrop(async (kbid) => {
      await s.remove(kbid).catch(() => undefined);
    });
    s.arm();
    return s;
  }

  get(kbid: string): ScheduleDoc | undefined {
    return this.schedules.get(kbid);
  }

  /** A knowledge box's schedule; 404 when the box has none (or does not exist). */
  require(kbid: string): ScheduleDoc {
    const sched = this.schedules.get(this.kbs.require(kbid).uuid);
    if (!sched) throw notFound("No backup schedule for this knowledge box");
    return sched;
  }

  /** Create or replace the schedule of a knowledge box; the first backup runs one interval from now. */
  async set(kbid: string, intervalSeconds: number, keep: number): Promise<ScheduleDoc> {
    const kb = this.kbs.require(kbid);
    const prev = this.schedules.get(kb.uuid);
    const doc: ScheduleDoc = {
      kb_id: kb.uuid,
      interval_seconds: intervalSeconds,
      keep,
      next_run: new Date(Date.now() + intervalSeconds * 1000).toISOString(),
      last_backup_id: prev?.last_backup_id ?? null,
      last_error: prev?.last_error ?? null,
    };
    await this.schedules.put(kb.uuid, doc);
    this.arm();
    return doc;
  }

  async remove(kbid: string): Promise<boolean> {
    if (!this.schedules.has(kbid)) return false;
    await this.schedules.delete(kbid);
    return true;
  }

  private arm(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    const now = Date.now();
    let next = now + MAX_SLEEP_MS;
    for (const s of this.schedules.values()) next = Math.min(next, Date.parse(s.next_run));
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - now));
    this.timer.unref();
  }

  private tick(): void {
    if (this.running || this.closed) return;
    this.running = this.runDue()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        this.arm();
      });
  }

  private async runDue(): Promise<void> {
    for (const s of [...this.schedules.values()]) {
      if (this.closed) return;
      if (Date.parse(s.next_run) > Date.now()) continue;
      const next_run = new Date(Date.now() + s.interval_seconds * 1000).toISOString();
      let doc: Pick<ScheduleDoc, "last_backup_id" | "last_error">;
      try {
        const started = await this.backups.create(s.kb_id, { scheduled: true });
        const done = await this.backups.wait(started.id);
        doc =
          done.status === "finished"
            ? { last_backup_id: done.id, last_error: null }
            : { last_backup_id: s.last_backup_id, last_error: done.error ?? "failed" };
        if (done.status === "finished") await this.prune(s.kb_id, s.keep);
      } catch (e) {
        doc = { last_backup_id: s.last_backup_id, last_error: (e as Error).message };
        this.log.error(`scheduled backup of ${s.kb_id} failed: ${(e as Error).message}`, { kb: s.kb_id });
      }
      // The schedule may have been changed or removed while the backup ran.
      const current = this.schedules.get(s.kb_id);
      if (current && current.next_run === s.next_run) await this.schedules.put(s.kb_id, { ...current, ...doc, next_run });
    }
    await this.expireExports();
  }

  /** Keep the newest `keep` finished scheduled backups of a knowledge box; manual ones are never pruned. */
  private async prune(kbid: string, keep: number): Promise<void> {
    const scheduled = this.backups.list("backup", kbid).filter((b) => b.scheduled && b.status === "finished");
    for (const old of scheduled.slice(keep))
      await this.backups.delete(old.id).catch((e) => this.log.warn(`cannot prune backup ${old.id}: ${(e as Error).message}`));
  }

  private async expireExports(): Promise<void> {
    for (const e of this.backups.list("export")) {
      if (e.status !== "running" && Date.now() - Date.parse(e.started_at) > EXPORT_TTL_MS) {
        await rm(e.path, { force: true });
        await this.backups.delete(e.id).catch(() => undefined);
      }
    }
  }

  /** Stop the timer and let a running scheduled backup finish. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
