import { z } from "zod";
import { KbSlug } from "./common.js";
import { route } from "./route.js";

const AccountParams = z.object({ account_id: z.string() });
const BackupParams = z.object({ account_id: z.string(), backup_id: z.string() });
const KbParams = z.object({ kbid: z.string() });

export const BackupStatus = z.enum(["running", "finished", "failed"]);

/** A backup as the spec lists it, plus kbox's status fields. */
export const Backup = z.object({
  id: z.string(),
  account_id: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  size: z.number().int(),
  kb_data: z.object({ id: z.string(), slug: z.string(), title: z.string(), created: z.string() }),
  status: BackupStatus,
  error: z.string().optional(),
  /** Made by a schedule (retention applies to these only). */
  scheduled: z.boolean(),
  /** LanceDB table → the version held. */
  tables: z.record(z.string(), z.number()),
  paragraphs: z.number().int(),
  /** While running: bytes done of the snapshot's bytes. */
  progress: z.object({ done: z.number(), total: z.number() }).optional(),
});
export type Backup = z.infer<typeof Backup>;

export const createBackup = route({
  method: "POST",
  path: "/api/v1/account/:account_id/backups",
  params: AccountParams,
  body: z.object({ kb_id: z.string().uuid() }),
  response: z.object({ id: z.string() }),
  status: 201,
  kb: { body: "kb_id" },
  role: "MANAGER",
  summary: "Back up a knowledge box (the snapshot is taken before this answers; the archive is written in the background)",
});

export const listBackups = route({
  method: "GET",
  path: "/api/v1/account/:account_id/backups",
  params: AccountParams,
  response: z.array(Backup),
  // A key scoped to one knowledge box sees that box's backups only.
  scope: "authenticated",
  role: "MANAGER",
  summary: "List backups, newest first",
});

export const getBackup = route({
  method: "GET",
  path: "/api/v1/account/:account_id/backups/:backup_id",
  params: BackupParams,
  response: Backup,
  kb: { param: "backup_id", as: "backup" },
  role: "MANAGER",
  summary: "A backup and, while it runs, its progress",
});

export const deleteBackup = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/backups/:backup_id",
  params: BackupParams,
  status: 204,
  kb: { param: "backup_id", as: "backup" },
  role: "MANAGER",
  summary: "Delete a backup and its archive",
});

export const downloadBackup = route({
  method: "GET",
  path: "/api/v1/account/:account_id/backups/:backup_id/download",
  params: BackupParams,
  kb: { param: "backup_id", as: "backup" },
  role: "MANAGER",
  summary: "The backup's .tar.gz archive",
});

export const RestoreBody = z.object({ slug: KbSlug, title: z.string().min(1).max(1000) });

export const restoreBackup = route({
  method: "POST",
  path: "/api/v1/account/:account_id/backups/:backup_id/restore",
  params: BackupParams,
  body: RestoreBody,
  response: z.object({ id: z.string() }),
  status: 201,
  // It creates a knowledge box.
  scope: "account",
  role: "MANAGER",
  summary: "Restore a backup into a new knowledge box (419 when the slug is taken)",
});

export const Schedule = z.object({
  kb_id: z.string(),
  interval_seconds: z.number().int(),
  keep: z.number().int(),
  next_run: z.string(),
  last_backup_id: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type Schedule = z.infer<typeof Schedule>;

export const setSchedule = route({
  method: "PUT",
  path: "/api/v1/kb/:kbid/backup_schedule",
  params: KbParams,
  body: z.object({
    interval_seconds: z
      .number()
      .int()
      .min(1)
      .max(366 * 86400),
    keep: z.number().int().min(1).max(10_000),
  }),
  response: Schedule,
  role: "MANAGER",
  summary: "Back this knowledge box up every interval, keeping the last `keep` scheduled backups",
});

export const getSchedule = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/backup_schedule",
  params: KbParams,
  response: Schedule,
  role: "MANAGER",
  summary: "The knowledge box's backup schedule (404 when none)",
});

export const deleteSchedule = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/backup_schedule",
  params: KbParams,
  status: 204,
  role: "MANAGER",
  summary: "Stop periodic backups of the knowledge box (its backups stay)",
});

const ExportParams = z.object({ kbid: z.string(), export_id: z.string() });

export const startExport = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/export",
  params: KbParams,
  response: z.object({ export_id: z.string() }),
  role: "MANAGER",
  summary: "Export the knowledge box as a backup archive (download it when finished; kept a day)",
});

/** An export's or import's status, as the upstream StatusResponse (errored where a backup says failed). */
export const TransferStatus = z.enum(["scheduled", "running", "finished", "errored"]);
export type TransferStatus = z.infer<typeof TransferStatus>;
const TransferCounts = {
  /** Export: bytes to write; import: resources imported. */
  total: z.number().int(),
  processed: z.number().int(),
  retries: z.number().int(),
};

export const exportStatus = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/export/:export_id/status",
  params: ExportParams,
  response: z.object({
    status: TransferStatus,
    ...TransferCounts,
    size: z.number().int(),
    error: z.string().optional(),
    progress: Backup.shape.progress,
  }),
  role: "MANAGER",
  summary: "Status of an export",
});

export const downloadExport = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/export/:export_id",
  params: ExportParams,
  role: "MANAGER",
  summary: "Download a finished export (.tar.gz)",
});

export const importIntoKb = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/import",
  params: KbParams,
  bodyKind: "raw",
  response: z.object({ import_id: z.string(), kbid: z.string(), slug: z.string() }),
  role: "MANAGER",
  summary: "Import an archive (request body) into this empty knowledge box",
});

export const importStatus = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/import/:import_id/status",
  params: z.object({ kbid: z.string(), import_id: z.string() }),
  response: z.object({ status: TransferStatus, ...TransferCounts }),
  role: "MANAGER",
  summary: "Status of an import (imports finish before their request answers)",
});

export const importNewKb = route({
  method: "POST",
  path: "/api/v1/kbs/import",
  query: z.object({ slug: KbSlug.optional(), title: z.string().min(1).max(1000).optional() }),
  bodyKind: "raw",
  response: z.object({ kbid: z.string(), slug: z.string() }),
  status: 201,
  scope: "account",
  role: "MANAGER",
  summary: "Import an archive (request body) as a new knowledge box; slug and title default to the archived ones",
});
