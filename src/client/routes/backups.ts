// Generated from src/api/backups.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/backups.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/backups.js";
import type { Routed } from "../client.js";

export type * from "../../api/backups.js";

export const createBackup: Routed<typeof api.createBackup> = {
  method: "POST",
  path: "/api/v1/account/:account_id/backups",
  stream: false,
};
export const deleteBackup: Routed<typeof api.deleteBackup> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/backups/:backup_id",
  stream: false,
};
export const deleteSchedule: Routed<typeof api.deleteSchedule> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/backup_schedule",
  stream: false,
};
export const downloadBackup: Routed<typeof api.downloadBackup> = {
  method: "GET",
  path: "/api/v1/account/:account_id/backups/:backup_id/download",
  stream: false,
};
export const downloadExport: Routed<typeof api.downloadExport> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/export/:export_id",
  stream: false,
};
export const exportStatus: Routed<typeof api.exportStatus> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/export/:export_id/status",
  stream: false,
};
export const getBackup: Routed<typeof api.getBackup> = {
  method: "GET",
  path: "/api/v1/account/:account_id/backups/:backup_id",
  stream: false,
};
export const getSchedule: Routed<typeof api.getSchedule> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/backup_schedule",
  stream: false,
};
export const importIntoKb: Routed<typeof api.importIntoKb> = { method: "POST", path: "/api/v1/kb/:kbid/import", stream: false };
export const importNewKb: Routed<typeof api.importNewKb> = { method: "POST", path: "/api/v1/kbs/import", stream: false };
export const importStatus: Routed<typeof api.importStatus> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/import/:import_id/status",
  stream: false,
};
export const listBackups: Routed<typeof api.listBackups> = {
  method: "GET",
  path: "/api/v1/account/:account_id/backups",
  stream: false,
};
export const restoreBackup: Routed<typeof api.restoreBackup> = {
  method: "POST",
  path: "/api/v1/account/:account_id/backups/:backup_id/restore",
  stream: false,
};
export const setSchedule: Routed<typeof api.setSchedule> = {
  method: "PUT",
  path: "/api/v1/kb/:kbid/backup_schedule",
  stream: false,
};
export const startExport: Routed<typeof api.startExport> = { method: "POST", path: "/api/v1/kb/:kbid/export", stream: false };
