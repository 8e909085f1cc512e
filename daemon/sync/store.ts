import type { ExternalConnection, LogEntry, LogLevel, SyncConfig, SyncJob } from "../../src/api/sync.js";
import type { KbService } from "../kbs/service.js";
import type { DocTable, GroupedDocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";

/** A connection as stored: with its credentials sealed (secrets.ts), never sent on the wire. */
export type StoredConnection = ExternalConnection & { sealed_credentials?: string };

/** The sync records of one knowledge box: connections, configurations, jobs and job logs. */
export class SyncTables {
  private logSeq = new Map<string, number>();

  private constructor(
    readonly connections: DocTable<StoredConnection>,
    readonly configs: DocTable<SyncConfig>,
    readonly jobs: DocTable<SyncJob & { seq: number }>,
    readonly logs: GroupedDocTable<LogEntry>,
  ) {}

  static async open(store: KbStore): Promise<SyncTables> {
    const [connections, configs, jobs, logs] = await Promise.all([
      store.docTable<StoredConnection>("sync_connections"),
      store.docTable<SyncConfig>("sync_configs"),
      store.docTable<SyncJob & { seq: number }>("sync_jobs"),
      store.groupedDocTable<LogEntry>("sync_logs"),
    ]);
    return new SyncTables(connections, configs, jobs, logs);
  }

  /** A job just created: its log is empty (its first entry need not read the table). */
  fresh(jobId: string): void {
    if (!this.logSeq.has(jobId)) this.logSeq.set(jobId, 0);
  }

  /** Append a log entry to a job; ids increase per job (the cursor of the logs route). */
  async log(jobId: string, level: LogLevel, message: string, extra: Record<string, unknown> = {}): Promise<void> {
    let seq = this.logSeq.get(jobId);
    if (seq === undefined) {
      const stored = (await this.logs.group(jobId)).size;
      // Another entry may have been numbered while this one read the table.
      seq = this.logSeq.get(jobId) ?? stored;
    }
    seq += 1;
    this.logSeq.set(jobId, seq);
    const entry: LogEntry = { id: seq, timestamp: new Date().toISOString(), level, message, extra };
    // A new id (the job's next number): appended, no older version to look for.
    await this.logs.append(`${jobId}:${String(seq).padStart(9, "0")}`, jobId, entry);
  }

  async idle(): Promise<void> {
    await Promise.all([this.connections.idle(), this.configs.idle(), this.jobs.idle(), this.logs.idle()]);
  }
}

/** The sync tables of every knowledge box, each opened once (the service and the runner share them). */
export class SyncRecords {
  private readonly tables = new Map<string, Promise<SyncTables>>();

  constructor(private readonly kbs: KbService) {}

  /** The sync tables of a knowledge box (404 when it does not exist). */
  async of(kbid: string): Promise<{ kbid: string; t: SyncTables }> {
    const { kb, store } = await this.kbs.open(kbid);
    let t = this.tables.get(kb.uuid);
    if (!t) {
      t = SyncTables.open(store);
      this.tables.set(kb.uuid, t);
      t.catch(() => this.tables.delete(kb.uuid));
    }
    return { kbid: kb.uuid, t: await t };
  }

  /** Forget a dropped knowledge box's tables. */
  forget(kbid: string): void {
    this.tables.delete(kbid);
  }

  /** Record that a pass finished (for periodic syncs). */
  async markRun(kbid: string, id: string, when: string): Promise<void> {
    const { t } = await this.of(kbid);
    const cur = t.configs.get(id);
    if (cur) await t.configs.put(id, { ...cur, last_sync_run: when });
  }
}
