import { z } from "zod";
import { Classification, DateTime, IntString } from "./common.js";
import { route } from "./route.js";

/**
 * Providers of a sync connection. `local_folder` and `sitemap` are served by the daemon itself; the
 * spec's external providers are stored as records (they need the hosted service's OAuth flows).
 */
export const PROVIDERS = [
  "local_folder",
  "sitemap",
  "drive_oauth",
  "directory_oauth",
  "directory_certificate_credentials",
  "object_store_assume_role",
  "fileshare_oauth",
  "filebox_oauth",
] as const;
export const Provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof Provider>;
export const LOCAL_PROVIDERS: ReadonlySet<Provider> = new Set(["local_folder", "sitemap"]);

export const ExternalConnection = z.object({
  id: z.string(),
  kb_id: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  provider: Provider,
  capabilities: z.object({
    has_sites: z.boolean(),
    requires_site_search: z.boolean(),
    requires_site_url_resolution: z.boolean(),
  }),
});
export type ExternalConnection = z.infer<typeof ExternalConnection>;

export const FileFilter = z.strictObject({
  mode: z.enum(["include", "exclude"]).default("include"),
  extensions: z.array(z.string().max(50)).max(500).optional(),
  glob_patterns: z.array(z.string().max(1000)).max(500).optional(),
});
export type FileFilter = z.infer<typeof FileFilter>;

export const TimeRange = z.strictObject({ from: DateTime.nullable().optional(), to: DateTime.nullable().optional() });

/** Members a config may change after creation (all nullable: null means no change). */
const mutable = {
  name: z.string().trim().min(1).max(250),
  file_filter: FileFilter.nullable().optional(),
  labels: z.array(Classification).max(100).nullable().optional(),
  modified_time_range: TimeRange.nullable().optional(),
  extract_strategy: z.string().nullable().optional(),
  /** kbox: run a sync every N minutes (0 or null: only when triggered; folders are also watched live). */
  sync_interval_minutes: z.number().int().min(0).max(525_600).nullable().optional(),
  /** kbox: extra .gitignore-style patterns. */
  ignore: z.array(z.string().max(1000)).max(1000).nullable().optional(),
  /** kbox, sitemaps: restrict indexing to a part of each page. */
  css_selector: z.string().max(1000).nullable().optional(),
  xpath: z.string().max(1000).nullable().optional(),
  /** kbox: false stops the configuration (no watcher, schedule or trigger); a restored one starts false. */
  enabled: z.boolean().nullable().optional(),
};

export const AddSyncConfig = z.strictObject({
  ...mutable,
  /** A local folder (absolute path) or a sitemap URL, depending on the connection's provider. */
  sync_root_path: z.string().min(1).max(4096).nullable().optional(),
  folder_id: z.string().nullable().optional(),
  external_connection_id: z.string().uuid(),
  drive_id: z.string().nullable().optional(),
  sharepoint_site_pages_site_id: z.string().nullable().optional(),
});
export type AddSyncConfig = z.infer<typeof AddSyncConfig>;

export const UpdateSyncConfig = z.strictObject({ ...mutable, name: mutable.name.nullable().optional() });
export type UpdateSyncConfig = z.infer<typeof UpdateSyncConfig>;

export const SyncConfig = z.object({
  id: z.string(),
  name: z.string(),
  kb_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  sync_root_path: z.string().nullable(),
  sync_interval_minutes: z.number().nullable(),
  external_connection: ExternalConnection,
  drive_id: z.string().nullable(),
  folder_id: z.string().nullable(),
  file_filter: FileFilter.nullable(),
  labels: z.array(Classification),
  modified_time_range: TimeRange.nullable(),
  extract_strategy: z.string().nullable(),
  sharepoint_site_pages_site_id: z.string().nullable(),
  last_sync_run: z.string().nullable(),
  ignore: z.array(z.string()),
  css_selector: z.string().nullable(),
  xpath: z.string().nullable(),
  /** kbox: absent or true: syncing; false: stopped (a configuration restored from a backup starts so). */
  enabled: z.boolean().optional(),
});
export type SyncConfig = z.infer<typeof SyncConfig>;

/** pending → running → completed | failed | cancelled */
export const JobStatus = z.enum(["pending", "running", "completed", "failed", "cancelled"]);
export type JobStatus = z.infer<typeof JobStatus>;

export const SyncStats = z.object({
  scanned: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  moved: z.number().int(),
  deleted: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});
export type SyncStats = z.infer<typeof SyncStats>;

export const SyncJob = z.object({
  id: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  config_id: z.string(),
  status: JobStatus,
  options: z.object({ full_sync: z.boolean() }),
  trigger: z.enum(["api", "created", "schedule", "startup", "watch"]),
  stats: SyncStats,
  error: z.string().nullable(),
});
export type SyncJob = z.infer<typeof SyncJob>;

export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "EXCEPTION", "CRITICAL"] as const;
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;
export const LogEntry = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  level: LogLevel,
  message: z.string(),
  extra: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.infer<typeof LogEntry>;

const Kb = z.object({ kbid: z.string() });
const Conf = Kb.extend({ config_id: z.string() });
const Order = z.enum(["asc", "desc"]).default("desc");

export const createConnection = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/external_connections",
  params: Kb,
  body: z.strictObject({ provider: Provider, credentials: z.record(z.string(), z.unknown()).nullable().optional() }),
  /** 201 the connection; OAuth providers answer 200 {authorize_url} and the callback makes the connection. */
  response: z.union([ExternalConnection, z.object({ authorize_url: z.string() })]),
  status: 201,
  role: "MANAGER",
  summary: "Create an external connection (OAuth providers: 200 {authorize_url}, the connection is made by the callback)",
});
export const oauthCallback = route({
  method: "GET",
  path: "/api/v1/external_connections/callback",
  query: z.object({
    state: z.string().optional(),
    code: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
  }),
  response: ExternalConnection,
  scope: "public",
  summary:
    "Where an OAuth provider sends the browser back: the code is exchanged and the connection made (the state is the only credential)",
});
export const listConnections = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections",
  params: Kb,
  response: z.array(ExternalConnection),
  role: "READER",
  summary: "List external connections",
});
export const getConnection = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections/:connection_id",
  params: Kb.extend({ connection_id: z.string() }),
  response: ExternalConnection,
  role: "READER",
  summary: "Get an external connection",
});

export const addConfig = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/sync_configs",
  params: Kb,
  body: AddSyncConfig,
  response: SyncConfig,
  status: 201,
  role: "MANAGER",
  summary: "Add a sync configuration",
});
export const listConfigs = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs",
  params: Kb,
  response: z.array(SyncConfig),
  role: "READER",
  summary: "List sync configurations",
});
export const getConfig = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  params: Conf,
  response: SyncConfig,
  role: "READER",
  summary: "Get a sync configuration",
});
export const updateConfig = route({
  method: "PATCH",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  params: Conf,
  body: UpdateSyncConfig,
  response: SyncConfig,
  role: "MANAGER",
  summary: "Update a sync configuration",
});
export const deleteConfig = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id",
  params: Conf,
  query: z.object({ delete_resources: z.preprocess((v) => v === "true" || v === true, z.boolean()).optional() }),
  status: 204,
  role: "MANAGER",
  summary: "Remove a sync configuration (its resources stay unless delete_resources=true)",
});
export const triggerSync = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id/sync",
  params: Conf,
  body: z.strictObject({ full_sync: z.boolean().default(false) }).optional(),
  response: SyncJob,
  status: 201,
  role: "WRITER",
  summary: "Trigger a sync (409 while a job is pending or running)",
});
export const listJobs = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_configs/:config_id/jobs",
  params: Conf,
  query: z.object({
    limit: IntString.pipe(z.number().int().min(1).max(100)).default(20),
    cursor: z.string().optional(),
    order: Order,
  }),
  response: z.object({ items: z.array(SyncJob), next_cursor: z.string().nullable() }),
  role: "READER",
  summary: "List a configuration's sync jobs",
});
export const getJob = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_jobs/:job_id",
  params: Kb.extend({ job_id: z.string() }),
  response: SyncJob,
  role: "READER",
  summary: "Get a sync job",
});
export const jobLogs = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/sync_jobs/:job_id/logs",
  params: Kb.extend({ job_id: z.string() }),
  query: z.object({
    limit: IntString.pipe(z.number().int().min(1).max(500)).default(50),
    cursor: IntString.optional(),
    level: LogLevel.optional(),
    start_date: DateTime.optional(),
    end_date: DateTime.optional(),
    order: Order,
  }),
  response: z.object({ items: z.array(LogEntry), next_cursor: z.number().int().nullable() }),
  role: "READER",
  summary: "Get a sync job's log entries",
});

/** Browse Storage's query (every member nullable; the rules per provider are the spec's). */
export const BrowseQuery = z.object({
  site_search: z.string().nullable().optional(),
  site_id: z.string().nullable().optional(),
  drive_id: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
  folder_id: z.string().nullable().optional(),
  page_token: z.string().nullable().optional(),
});
export type BrowseQuery = z.infer<typeof BrowseQuery>;

export const BrowseResult = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string(), web_url: z.string().nullable() })).optional(),
  drives: z
    .array(z.object({ id: z.string(), name: z.string(), drive_type: z.string().nullable(), web_url: z.string().nullable() }))
    .optional(),
  folders: z.array(z.object({ id: z.string(), name: z.string(), path: z.string(), web_url: z.string().nullable() })).optional(),
  next_page_token: z.string().nullable(),
});
export type BrowseResult = z.infer<typeof BrowseResult>;

const ConnParams = Kb.extend({ connection_id: z.string() });

export const browseStorage = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connection/:connection_id/browse",
  params: ConnParams,
  query: BrowseQuery,
  response: BrowseResult,
  role: "MANAGER",
  summary: "Browse a connection's storage (object store: drive_id is the bucket, path a prefix)",
});

export const resolveSite = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connection/:connection_id/resolve_site",
  params: ConnParams,
  // Required by the spec; checked after the box and connection are found (422 located at query.site_url).
  query: z.object({ site_url: z.string().optional() }),
  response: z.object({ id: z.string(), name: z.string(), web_url: z.string().nullable().optional() }),
  role: "MANAGER",
  summary: "Resolve a site URL of a site-based connection",
});

export const assumeRoleInfo = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/external_connections/s3/assume_role_info",
  params: Kb,
  response: z.object({ external_id: z.string(), role_name: z.string(), cloud_account_id: z.string().nullable() }),
  role: "MANAGER",
  summary: "What to trust for the object-store provider's assume-role credentials",
});

export const validateResources = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/sync_config/:config_id/validate_resources",
  params: Conf,
  body: z.strictObject({ credentials: z.string(), resources: z.array(z.object({ file_id: z.string() })).max(1000) }),
  response: z.object({
    valid_resources: z.array(z.object({ file_id: z.string() })),
    invalid_resources: z.array(z.object({ resource: z.object({ file_id: z.string() }), reason: z.string() })),
  }),
  role: "MANAGER",
  summary: "Which files of a sync configuration's storage exist and would be synced",
});
