import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { LOCAL_ACCOUNT } from "../../src/api/accounts.js";
import type { Backup } from "../../src/api/backups.js";
import { conflict, notFound } from "../errors.js";
import { withoutSecrets } from "../kbs/learning-view.js";
import type { KbService } from "../kbs/service.js";
import { type Log, silentLog } from "../lifecycle/logger.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbDoc, Store } from "../store/index.js";
import { dropTag, type KbSnapshot, snapshotKb, trimSnapshot } from "../store/snapshot.js";
import { checksums, writeArchive } from "./archive.js";
import { Restorer } from "./restore.js";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupDoc, type BackupKind, type BackupManifest } from "./types.js";

/** How far a running backup is: bytes checksummed plus bytes archived, of twice the snapshot size. */
export interface BackupProgress {
  done: number;
  total: number;
}

interface Job {
  promise: Promise<BackupDoc>;
  progress: BackupProgress;
}

/** The LanceDB tag that pins a backup's table versions while it is written. */
const backupTag = (id: string) => `kbox-backup-${id}`;

/**
 * Backups and exports of knowledge boxes. `create` pins a snapshot at once (writers never wait)
 * and returns; the archive is written in the background, and the record says when it is done.
 */
export class BackupService {
  readonly backupsDir: string;
  readonly exportsDir: string;
  readonly tmpDir: string;
  readonly restorer: Restorer;
  private readonly jobs = new Map<string, Job>();
  /** Finished imports by id (imports complete within their request; the id is for the status route). */
  private readonly imports = new Map<string, string>();

  private constructor(
    private readonly store: Store,
    private readonly kbs: KbService,
    private readonly records: DocTable<BackupDoc>,
    private readonly version: string,
    private readonly log: Log,
  ) {
    this.backupsDir = join(store.dataDir, "backups");
    this.exportsDir = join(store.dataDir, "exports");
    this.tmpDir = join(store.dataDir, "tmp", "backup");
    this.restorer = new Restorer(store, kbs, this.tmpDir);
  }

  /** Open the records, clear staging left by a killed daemon, and mark its unfinished backups failed. */
  static async open(store: Store, kbs: KbService, version: string, log: Log = silentLog): Promise<BackupService> {
    const records = await store.metaTable<BackupDoc>("backups");
    const s = new BackupService(store, kbs, records, version, log);
    await rm(s.tmpDir, { recursive: true, force: true });
    await Promise.all([s.backupsDir, s.exportsDir, s.tmpDir].map((d) => mkdir(d, { recursive: true, mode: 0o700 })));
    await s.restorer.cleanOrphans();
    for (const doc of [...records.values()]) {
      if (doc.status !== "running") continue;
      await rm(`${doc.path}.partial`, { force: true });
      // The snapshot's tags pin old table versions: an unfinished backup must not keep them forever.
      const kb = await kbs.open(doc.kb_id).catch(() => undefined);
      if (kb) await dropTag(kb.store, backupTag(doc.id));
      await records.put(doc.id, { ...doc, status: "failed", error: "interrupted: the daemon stopped" });
      log.warn(`${doc.kind} ${doc.id} of ${doc.kb_data.slug} failed: interrupted by the last stop`, {
        kb: doc.kb_data.slug,
        backup: doc.id,
      });
    }
    return s;
  }

  /** Snapshot `kbid` now and start writing its archive; resolves with the running record. */
  async create(kbid: string, opts: { kind?: BackupKind; scheduled?: boolean } = {}): Promise<BackupDoc> {
    const { kb, store: kbStore } = await this.kbs.open(kbid);
    const id = randomUUID();
    const kind = opts.kind ?? "backup";
    const stage = join(this.tmpDir, `snap-${id}`);
    const started = new Date().toISOString();
    const base: BackupDoc = {
      id,
      kind,
      account_id: LOCAL_ACCOUNT,
      kb_id: kb.uuid,
      kb_data: { id: kb.uuid, slug: kb.slug, title: kb.title, created: kb.created },
      started_at: started,
      finished_at: null,
      status: "running",
      size: 0,
      path: join(kind === "export" ? this.exportsDir : this.backupsDir, `${id}.tar.gz`),
      tables: {},
      paragraphs: 0,
      scheduled: opts.scheduled ?? false,
    };
    // The record before the snapshot's tags: a kill from here on leaves a running record, whose tags the
    // next start removes.
    await this.records.put(id, base);
    let snap: KbSnapshot;
    try {
      snap = await snapshotKb(kbStore, stage, backupTag(id));
    } catch (e) {
      await rm(stage, { recursive: true, force: true });
      this.log.error(`${kind} of ${kb.slug} failed: ${(e as Error).message}`, { kb: kb.slug });
      await this.records.delete(id);
      throw e;
    }
    const doc: BackupDoc = { ...base, tables: snap.tables, paragraphs: snap.rows.paragraphs ?? 0 };
    await this.records.put(id, doc);
    this.log(`${kind} ${id} of ${kb.slug} started${doc.scheduled ? " (scheduled)" : ""}`, { kb: kb.slug, backup: id });
    const progress = { done: 0, total: 0 };
    const promise = this.write(doc, kb, snap, stage, progress).finally(() => this.jobs.delete(id));
    this.jobs.set(id, { promise, progress });
    return doc;
  }

  private async write(
    doc: BackupDoc,
    live: KbDoc,
    snap: KbSnapshot,
    stage: string,
    progress: BackupProgress,
  ): Promise<BackupDoc> {
    let next: BackupDoc;
    // Stored secrets (user_keys) never go into an archive: they are masked there, and a restore leaves them out.
    const kb = withoutSecrets(live);
    try {
      await trimSnapshot(stage, this.store.session);
      await writeFile(join(stage, "kb.json"), JSON.stringify(kb, null, 2), { mode: 0o600 });
      const files = await checksums(stage);
      const bytes = Object.values(files).reduce((n, f) => n + f.size, 0);
      progress.total = bytes;
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        format_version: BACKUP_FORMAT_VERSION,
        kbox_version: this.version,
        created: doc.started_at,
        kb: doc.kb_data,
        tables: snap.tables,
        embedder: { learning_configuration: kb.learning_configuration, vectorsets: snap.vectorsets },
        counts: { resources: snap.rows.resources ?? 0, paragraphs: snap.rows.paragraphs ?? 0 },
        files,
      };
      await writeFile(join(stage, "manifest.json"), JSON.stringify(manifest, null, 2), { mode: 0o600 });
      const size = await writeArchive(stage, doc.path, (n) => {
        progress.done = Math.min(progress.total, progress.done + n);
      });
      next = { ...doc, status: "finished", finished_at: new Date().toISOString(), size };
    } catch (e) {
      next = { ...doc, status: "failed", finished_at: new Date().toISOString(), error: (e as Error).message };
    } finally {
      await snap.release();
      await rm(stage, { recursive: true, force: true });
    }
    await this.records.put(doc.id, next);
    const fields = {
      kb: doc.kb_data.slug,
      backup: doc.id,
      size: next.size,
      ms: Date.parse(next.finished_at!) - Date.parse(doc.started_at),
    };
    if (next.status === "finished") this.log(`${doc.kind} ${doc.id} of ${doc.kb_data.slug} finished`, fields);
    else this.log.error(`${doc.kind} ${doc.id} of ${doc.kb_data.slug} failed: ${next.error}`, fields);
    return next;
  }

  /** Resolve when the backup's archive is written (or failed). */
  async wait(id: string): Promise<BackupDoc> {
    const job = this.jobs.get(id);
    return job ? job.promise : this.get(id);
  }

  /** A backup's wire record: its document's members and, while it runs, its progress. */
  record(d: BackupDoc): Backup {
    const { id, account_id, started_at, finished_at, size, kb_data, status, error, scheduled, tables, paragraphs } = d;
    return {
      id,
      account_id,
      started_at,
      finished_at,
      size,
      kb_data,
      status,
      error,
      scheduled,
      tables,
      paragraphs,
      progress: this.progress(id),
    };
  }

  /** Progress of a running backup, if it is running. */
  progress(id: string): BackupProgress | undefined {
    return this.jobs.get(id)?.progress;
  }

  list(kind: BackupKind = "backup", kbid?: string): BackupDoc[] {
    return [...this.records.values()]
      .filter((d) => d.kind === kind && (!kbid || d.kb_id === kbid))
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
  }

  get(id: string, kind?: BackupKind): BackupDoc {
    const doc = this.records.get(id);
    if (!doc || (kind && doc.kind !== kind)) throw notFound(`${kind === "export" ? "Export" : "Backup"} ${id} not found`);
    return doc;
  }

  /** An export's status as the upstream StatusResponse (total and processed in bytes), with kbox's size and progress. */
  exportStatus(kbid: string, id: string) {
    const d = this.exportOf(kbid, id);
    const progress = this.progress(d.id);
    const status = d.status === "failed" ? ("errored" as const) : d.status;
    const total = progress?.total ?? d.size;
    const processed = status === "finished" ? total : (progress?.done ?? 0);
    return { status, total, processed, retries: 0, size: d.size, error: d.error, progress };
  }

  /** The archive of a finished backup or export. */
  archive(id: string, kind?: BackupKind): BackupDoc {
    const doc = this.get(id, kind);
    if (doc.status !== "finished")
      throw conflict(`${doc.kind === "export" ? "Export" : "Backup"} ${id} is ${doc.status}, not finished`);
    return doc;
  }

  /** An export of this knowledge box (404 for another box's). */
  exportOf(kbid: string, id: string): BackupDoc {
    const doc = this.get(id, "export");
    if (doc.kb_id !== this.kbs.require(kbid).uuid) throw notFound(`Export ${id} not found`);
    return doc;
  }

  async delete(id: string, kind?: BackupKind): Promise<void> {
    const doc = this.get(id, kind);
    if (this.jobs.has(id)) throw conflict(`Backup ${id} is still running`);
    await rm(doc.path, { force: true });
    await this.records.delete(id);
    this.log(`${doc.kind} ${id} of ${doc.kb_data.slug} deleted`, { kb: doc.kb_data.slug, backup: id });
  }

  /** Restore a recorded backup into a new knowledge box. */
  async restore(id: string, slug: string, title: string): Promise<KbDoc> {
    const doc = this.archive(id);
    return this.logged(`restore of backup ${id} as ${slug}`, () => this.restorer.restoreFile(doc.path, { slug, title }));
  }

  /** Run a restore or import, logging its outcome. */
  private async logged(what: string, fn: () => Promise<KbDoc>): Promise<KbDoc> {
    try {
      const kb = await fn();
      this.log(`${what} finished: knowledge box ${kb.slug}`, { kb: kb.slug });
      return kb;
    } catch (e) {
      this.log.warn(`${what} failed: ${(e as Error).message}`);
      throw e;
    }
  }

  /** Import an archive as a new knowledge box. */
  importNew(input: Readable, target: { slug?: string; title?: string }): Promise<KbDoc> {
    return this.logged(`import${target.slug ? ` as ${target.slug}` : ""}`, () => this.restorer.restoreStream(input, target));
  }

  /** Import an archive into an existing empty knowledge box; returns the import id with the box. */
  async importInto(kbid: string, input: Readable): Promise<{ id: string; kb: KbDoc }> {
    const kb = await this.logged(`import into ${kbid}`, () => this.restorer.importInto(kbid, input));
    const id = randomUUID();
    this.imports.set(id, kb.uuid);
    return { id, kb };
  }

  /** Status of an import: known ids are finished (a failed import answered with its error). */
  async importStatus(
    kbid: string,
    id: string,
  ): Promise<{ status: "finished"; total: number; processed: number; retries: number }> {
    if (this.imports.get(id) !== this.kbs.require(kbid).uuid) throw notFound(`Import ${id} not found`);
    const { store } = await this.kbs.open(kbid);
    return { status: "finished", total: store.resources.size, processed: store.resources.size, retries: 0 };
  }

  /** Wait for running backups (the daemon is stopping). */
  async close(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.promise.catch(() => undefined)));
    await this.records.idle();
  }
}
