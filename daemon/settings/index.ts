/**
 * The daemon's settings: read once from its environment and command line (DaemonOptions), checked,
 * and handed to the services as typed values. The only module of the daemon that reads the
 * environment (besides the heap flag in lifecycle/heap.ts).
 */
import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { type KboxPaths, kboxPaths } from "../../src/api/paths.js";
import type { ActivitySettings } from "../activity/service.js";
import type { AskSettings } from "../ask/service.js";
import { defaultExtractWorkers } from "../ingest/extract-pool.js";
import type { IngestSettings } from "../ingest/retry.js";
import type { LogLevel } from "../lifecycle/logger.js";
import type { McpSettings } from "../mcp/service.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import type { ModelServiceSettings } from "../models/service.js";
import type { FetchPolicy } from "../net/outbound.js";
import type { SearchSettings } from "../search/service.js";
import type { CacheSizes } from "../store/db.js";
import { type ObjectLocation, parseDataUri } from "../store/location.js";
import type { CloudSettings } from "../sync/cloud/types.js";
import { VARIABLES, type Variable } from "./variables.js";

/** How kboxd is started: its environment and command-line flags. */
export interface DaemonOptions {
  /** The environment settings are read from (default: the process's). */
  env?: NodeJS.ProcessEnv;
  /** `host:port` or `port` for the optional TCP listener (loopback when no host is given). */
  listen?: string;
  trustRolesHeader?: boolean;
  foreground?: boolean;
  /** `--data`: the data URI (overrides KBOX_DATA_URI). */
  data?: string;
}

/** Every setting of the daemon, typed; each area receives its part. */
export interface DaemonSettings {
  paths: KboxPaths;
  /** The TCP listener (--listen), when asked for. */
  listen?: { host: string; port: number };
  trustRolesHeader: boolean;
  foreground: boolean;
  /** The least level the daemon log keeps (KBOX_LOG_LEVEL). */
  logLevel: LogLevel;
  /** kboxd.log rotates at this many bytes (KBOX_LOG_ROTATE_MB). */
  logRotateBytes: number;
  store: CacheSizes;
  /** Where the tables and blobs are when not in the data dir (KBOX_DATA_URI, --data). */
  dataLocation?: ObjectLocation;
  /** LanceDB's LANCE_FTS_PARTITION_SIZE (MiB), put into the process environment at start. */
  ftsPartitionMb: number;
  search: SearchSettings;
  ingest: IngestSettings;
  models: ModelServiceSettings;
  generation: GeneratorSettings;
  ask: AskSettings;
  mcp: McpSettings;
  /** The activity log (KBOX_ACTIVITY, KBOX_ACTIVITY_RETENTION_MONTHS). */
  activity: ActivitySettings;
  /** What the daemon may fetch on a request's behalf (KBOX_FETCH_ALLOW_PRIVATE, KBOX_FETCH_ALLOW). */
  fetch: FetchPolicy;
  /** The largest upload, in bytes (KBOX_MAX_UPLOAD_MB). */
  uploads: { maxBytes: number };
  /** Folders TCP callers may sync (KBOX_SYNC_ROOTS); the cloud providers' endpoints and OAuth applications. */
  sync: { roots: string[]; cloud: CloudSettings };
  /** Tasks on knowledge boxes (KBOX_TASK_PAUSE_MS). */
  tasks: { pauseMs: number };
  zone: ZoneSettings;
  /** The allocator the process runs on (reported by `kbox daemon status`). */
  allocator: "jemalloc" | "system";
}

/** Who this daemon is as a zone (KBOX_ZONE_NAME, KBOX_PUBLIC_URL). */
export interface ZoneSettings {
  name: string;
  /** KBOX_PUBLIC_URL; unset: the TCP listener's address once bound (DaemonInfo.listen). */
  publicUrl?: string;
  /** `<data>/secrets`: the token signing key (0600). */
  secretsDir: string;
}

/** Settings the daemon refuses to start with; the message names each bad variable or flag. */
export class SettingsError extends Error {}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

/** `host:port` or `port` → the TCP address (loopback when no host is given). */
export function parseListen(spec: string): { host: string; port: number } {
  const m = /^(?:\[?([^\]]*?)\]?:)?(\d+)$/.exec(spec.trim());
  if (!m) throw new SettingsError(`--listen wants host:port or port, got ${JSON.stringify(spec)}`);
  const port = Number(m[2]);
  if (port > 65535) throw new SettingsError(`port out of range: ${port}`);
  return { host: m[1] || "127.0.0.1", port };
}

type Values = { [K in keyof typeof VARIABLES]: (typeof VARIABLES)[K] extends Variable<infer T> ? T | undefined : never };

/** Every variable's value (its fallback when unset); every bad one is reported at once. */
function readVariables(env: NodeJS.ProcessEnv): Values {
  const out: Record<string, unknown> = {};
  const bad: string[] = [];
  for (const [key, v] of Object.entries(VARIABLES) as [string, Variable<unknown>][]) {
    const raw = env[v.name];
    try {
      out[key] = raw ? v.parse(raw) : v.fallback;
    } catch (e) {
      bad.push(`${v.name} ${(e as Error).message}`);
    }
  }
  if (bad.length) throw new SettingsError(bad.join("; "));
  return out as Values;
}

/** Read and check every setting; throws SettingsError naming what is wrong. */
export function loadSettings(opts: DaemonOptions = {}): DaemonSettings {
  const v = readVariables(opts.env ?? process.env);
  const listen = opts.listen ? parseListen(opts.listen) : undefined;
  if (opts.trustRolesHeader && listen && !LOOPBACK_HOSTS.has(listen.host))
    throw new SettingsError("--trust-roles-header is allowed only on a loopback listener");
  const paths = kboxPaths(
    {
      KBOX_HOME: v.home,
      XDG_DATA_HOME: v.dataHome,
      XDG_RUNTIME_DIR: v.runtimeDir,
      XDG_STATE_HOME: v.stateHome,
    },
    { home: homedir(), tmp: tmpdir(), uid: process.getuid?.() ?? userInfo().username },
  );
  // The owner's own endpoints are allowed whatever their address: the owner configured them.
  const cloud = cloudSettings(v, listen);
  const origins = [v.openaiBaseUrl, v.zoneUrl, v.hfEndpoint, ...ownCloudUrls(v)].flatMap((u) => (u ? [new URL(u).origin] : []));
  // Private addresses only while every caller is a local user: a TCP caller could probe the host's network.
  const fetch: FetchPolicy = {
    allowPrivate: v.fetchAllowPrivate ?? v.linksAllowPrivate ?? !listen,
    allow: v.fetchAllow!,
    origins,
  };
  return {
    paths,
    dataLocation: dataLocation(opts.data ?? v.dataUri, v),
    listen,
    trustRolesHeader: opts.trustRolesHeader ?? false,
    foreground: opts.foreground ?? false,
    logLevel: v.logLevel!,
    logRotateBytes: v.logRotateMb! * 2 ** 20,
    store: { indexCacheMb: v.indexCacheMb!, metadataCacheMb: v.metadataCacheMb! },
    ftsPartitionMb: v.ftsPartitionMb!,
    search: { annMinRows: v.annMinRows! },
    ingest: {
      concurrency: v.ingestConcurrency!,
      extractWorkers: v.extractWorkers ?? defaultExtractWorkers(),
      fieldThreads: v.fieldThreads!,
      retry: { deadlineMs: v.retryDeadline!, firstDelayMs: v.retryDelay!, maxDelayMs: v.retryMaxDelay! },
      fetch,
      ocr: v.ocr!,
      entities: v.entities!,
    },
    models: { autopull: v.modelsAutopull!, hubEndpoint: v.hfEndpoint!, threads: v.modelThreads!, fetch },
    generation: {
      defaultModel: v.generativeModel!,
      openaiBaseUrl: v.openaiBaseUrl,
      openaiApiKey: v.openaiApiKey,
      zoneUrl: v.zoneUrl,
      nuaKey: v.nuaKey,
      fetch,
    },
    ask: {
      contextTokens: v.contextTokens!,
      extractiveMinEvidence: v.extractiveMinEvidence!,
      generativeMinEvidence: v.generativeMinEvidence!,
    },
    mcp: { idleMs: v.mcpSessionIdle!, maxSessions: v.mcpMaxSessions! },
    activity: { record: v.activityRecord!, retentionMonths: v.activityRetentionMonths! },
    fetch,
    sync: { roots: v.syncRoots!, cloud },
    tasks: { pauseMs: v.taskPause! },
    uploads: { maxBytes: v.maxUploadMb! * 1024 ** 2 },
    zone: {
      name: v.zoneName!,
      publicUrl: v.publicUrl?.replace(/\/+$/, ""),
      secretsDir: join(paths.data, "secrets"),
    },
    // The loader preloaded what the process itself was started with, whatever `env` says.
    allocator: process.env.LD_PRELOAD?.includes("jemalloc") ? "jemalloc" : "system",
  };
}

/** The object-store location of the data, with its endpoint and credentials (none: the data dir). */
function dataLocation(uri: string | undefined, v: Values): ObjectLocation | undefined {
  if (!uri) return undefined;
  const endpoint = v.awsEndpoint ?? v.awsEndpointUrl;
  if (endpoint?.startsWith("http:") && !v.awsAllowHttp)
    throw new SettingsError(`AWS_ENDPOINT ${endpoint} is plain http: set AWS_ALLOW_HTTP=1 to allow it`);
  try {
    return parseDataUri(uri, {
      endpoint,
      region: v.awsRegion ?? "us-east-1",
      accessKeyId: v.awsAccessKeyId,
      secretAccessKey: v.awsSecretAccessKey,
      sessionToken: v.awsSessionToken,
      allowHttp: v.awsAllowHttp,
      refreshMs: v.storeRefresh!,
    });
  } catch (e) {
    throw new SettingsError(`data URI ${JSON.stringify(uri)}: ${(e as Error).message}`);
  }
}

/**
 * Put the settings LanceDB reads from the process environment there, before any table opens
 * (its native code reads them when it builds an index, not through any option).
 */
export function applyNativeSettings(s: DaemonSettings): void {
  process.env.LANCE_FTS_PARTITION_SIZE = String(s.ftsPartitionMb);
}

/** The cloud providers' endpoints (defaults: the real ones) and OAuth applications (unset: not offered). */
function cloudSettings(v: Values, listen?: { host: string; port: number }): CloudSettings {
  const base = v.publicUrl?.replace(/\/+$/, "") ?? (listen && listen.port ? `http://${listen.host}:${listen.port}` : undefined);
  const app = (id?: string, secret?: string) => (id && secret ? { clientId: id, clientSecret: secret } : undefined);
  const login = v.directoryLoginUrl!.replace(/\/+$/, "");
  return {
    redirectUrl: v.oauthRedirectUrl ?? (base ? `${base}/api/v1/external_connections/callback` : undefined),
    drive: {
      app: app(v.driveClientId, v.driveClientSecret),
      authUrl: v.driveAuthUrl!,
      tokenUrl: v.driveTokenUrl!,
      apiUrl: v.driveApiUrl!,
    },
    directory: {
      app: app(v.directoryClientId, v.directoryClientSecret),
      authUrl: `${login}/${v.directoryTenant}/oauth2/v2.0/authorize`,
      tokenUrl: `${login}/${v.directoryTenant}/oauth2/v2.0/token`,
      loginUrl: login,
      apiUrl: v.directoryApiUrl!,
    },
    fileshare: {
      app: app(v.fileshareClientId, v.fileshareClientSecret),
      authUrl: v.fileshareAuthUrl!,
      tokenUrl: v.fileshareTokenUrl!,
      apiUrl: v.fileshareApiUrl!,
      contentUrl: v.fileshareContentUrl!,
    },
    filebox: {
      app: app(v.fileboxClientId, v.fileboxClientSecret),
      authUrl: v.fileboxAuthUrl!,
      tokenUrl: v.fileboxTokenUrl!,
      apiUrl: v.fileboxApiUrl!,
    },
    stsUrl: v.stsUrl!,
    aws: {
      accessKeyId: v.awsAccessKeyId,
      secretAccessKey: v.awsSecretAccessKey,
      sessionToken: v.awsSessionToken,
      region: v.awsRegion ?? "us-east-1",
    },
  };
}

/** The cloud endpoints the owner set (the real providers' defaults are public addresses and need no exemption). */
const CLOUD_URLS = [
  "driveAuthUrl",
  "driveTokenUrl",
  "driveApiUrl",
  "directoryLoginUrl",
  "directoryApiUrl",
  "fileshareTokenUrl",
  "fileshareApiUrl",
  "fileshareContentUrl",
  "fileboxTokenUrl",
  "fileboxApiUrl",
  "stsUrl",
] as const;
const ownCloudUrls = (v: Values) => CLOUD_URLS.filter((k) => v[k] !== VARIABLES[k].fallback).map((k) => v[k]);
