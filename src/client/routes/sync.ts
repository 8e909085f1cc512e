// Generated from src/api/sync.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/sync.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/sync.js";
import type { Routed } from "../client.js";

export type * from "../../api/sync.js";

export const LOG_LEVELS: typeof api.LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "EXCEPTION", "CRITICAL"];
export const PROVIDERS: typeof api.PROVIDERS = [
  "local_folder",
  "sitemap",
  "drive_oauth",
  "directory_oauth",
  "directory_certificate_credentials",
  "object_store_assume_role",
  "fileshare_oauth",
  "filebox_oauth",
];
export const addConfig: Routed<typeof api.addConfig> = { method: "POST", path: "/api/v1/kb/:kbid/sync_configs", stream: false };
export const assumeRoleInfo: Routed<typeof api.assumeRoleInfo> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections/s3/assume_role_info",
  stream: false,
};
export const browseStorage: Routed<typeof api.browseStorage> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connection/:connection_id/browse",
  stream: false,
};
export const createConnection: Routed<typeof api.createConnection> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/external_connections",
  stream: false,
};
export const deleteConfig: Routed<typeof api.deleteConfig> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  stream: false,
};
export const getConfig: Routed<typeof api.getConfig> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  stream: false,
};
export const getConnection: Routed<typeof api.getConnection> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections/:connection_id",
  stream: false,
};
export const getJob: Routed<typeof api.getJob> = { method: "GET", path: "/api/v1/kb/:kbid/sync_jobs/:job_id", stream: false };
export const jobLogs: Routed<typeof api.jobLogs> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_jobs/:job_id/logs",
  stream: false,
};
export const listConfigs: Routed<typeof api.listConfigs> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs",
  stream: false,
};
export const listConnections: Routed<typeof api.listConnections> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections",
  stream: false,
};
export const listJobs: Routed<typeof api.listJobs> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id/jobs",
  stream: false,
};
export const oauthCallback: Routed<typeof api.oauthCallback> = {
  method: "GET",
  path: "/api/v1/external_connections/callback",
  stream: false,
};
export const resolveSite: Routed<typeof api.resolveSite> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connection/:connection_id/resolve_site",
  stream: false,
};
export const triggerSync: Routed<typeof api.triggerSync> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id/sync",
  stream: false,
};
export const updateConfig: Routed<typeof api.updateConfig> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  stream: false,
};
export const validateResources: Routed<typeof api.validateResources> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/sync_config/:config_id/validate_resources",
  stream: false,
};
