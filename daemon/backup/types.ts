import type { KbDoc } from "../store/index.js";

/** Archive format written by this kbox; restore refuses any other. */
export const BACKUP_FORMAT = "kbox-backup";
export const BACKUP_FORMAT_VERSION = 1;

/** The manifest at the head of every backup archive. */
export interface BackupManifest {
  format: string;
  format_version: number;
  kbox_version: string;
  created: string;
  kb: { id: string; slug: string; title: string; created: string };
  /** LanceDB table → the version the archive holds. */
  tables: Record<string, number>;
  /** What produced the vectors: restoring under another embedder would make them meaningless. */
  embedder: { learning_configuration: KbDoc["learning_configuration"]; vectorsets: Record<string, number> };
  counts: { resources: number; paragraphs: number };
  /** Every other file of the archive, with its size and SHA-256. */
  files: Record<string, { size: number; sha256: string }>;
}

export type BackupKind = "backup" | "export";
export type BackupStatus = "running" | "finished" | "failed";

/** A backup (or export) as recorded in the meta database. */
export interface BackupDoc {
  id: string;
  kind: BackupKind;
  account_id: string;
  kb_id: string;
  kb_data: { id: string; slug: string; title: string; created: string };
  started_at: string;
  finished_at: string | null;
  status: BackupStatus;
  error?: string;
  /** Bytes of the archive once finished. */
  size: number;
  /** Absolute path of the archive. */
  path: string;
  tables: Record<string, number>;
  paragraphs: number;
  /** Made by a schedule (retention applies only to these). */
  scheduled: boolean;
}

/** A periodic backup of one knowledge box. */
export interface ScheduleDoc {
  kb_id: string;
  interval_seconds: number;
  keep: number;
  next_run: string;
  last_backup_id: string | null;
  last_error: string | null;
}
