/**
 * Every environment variable the daemon reads: its name, type, default and meaning (the source of
 * docs/settings.md, written by `npm run gen:settings`) and how its value is parsed and checked.
 */
import { LOG_LEVELS, type LogLevel } from "../lifecycle/logger.js";
import { DEFAULT_MODEL_THREADS } from "../models/onnx.js";

/** One variable: documented, and parsed when set (an empty value counts as unset). */
export interface Variable<T> {
  name: string;
  /** The kind of value, for the reference table. */
  type: string;
  /** The default as documented; the typed one is `fallback` (absent when it depends on other settings). */
  default: string;
  fallback?: T;
  doc: string;
  /** The value of a set variable; throws a message (the caller prefixes the name) when it is not valid. */
  parse(raw: string): T;
}

type Doc = { doc: string; default?: string };

const show = (raw: string) => JSON.stringify(raw);

function int(name: string, o: Doc & { min: number; max?: number; fallback?: number }): Variable<number> {
  const range = o.max === undefined ? `of at least ${o.min}` : `from ${o.min} to ${o.max}`;
  return {
    name,
    type: `whole number ${o.max === undefined ? `≥ ${o.min}` : `${o.min}–${o.max}`}`,
    default: o.default ?? String(o.fallback ?? ""),
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      const n = Number(raw.trim());
      if (!/^\s*\d+\s*$/.test(raw) || n < o.min || (o.max !== undefined && n > o.max))
        throw new Error(`must be a whole number ${range}, not ${show(raw)}`);
      return n;
    },
  };
}

function flag(name: string, o: Doc & { fallback?: boolean }): Variable<boolean> {
  return {
    name,
    type: "flag (1/0, true/false, yes/no, on/off)",
    default: o.default ?? (o.fallback ? "1" : "0"),
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      if (/^\s*(1|true|yes|on)\s*$/i.test(raw)) return true;
      if (/^\s*(0|false|no|off)\s*$/i.test(raw)) return false;
      throw new Error(`must be 1 or 0, not ${show(raw)}`);
    },
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** "500ms", "60s", "10m", "24h", "2d" or a number of seconds, in ms. */
function duration(name: string, o: Doc & { fallback: number; default: string }): Variable<number> {
  return {
    name,
    type: "duration (500ms, 60s, 10m, 24h, 2d; a bare number is seconds)",
    default: o.default,
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(raw);
      if (!m) throw new Error(`must be a duration such as 60s, 10m or 24h, not ${show(raw)}`);
      return Math.round(Number(m[1]) * UNITS[(m[2] ?? "s").toLowerCase()]);
    },
  };
}

function url(name: string, o: Doc & { fallback?: string }): Variable<string> {
  return {
    name,
    type: "http(s) URL",
    default: o.default ?? o.fallback ?? "unset",
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      const v = raw.trim();
      if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) throw new Error(`must be an http(s) URL, not ${show(raw)}`);
      return v;
    },
  };
}

function share(name: string, o: Doc & { fallback: number }): Variable<number> {
  return {
    name,
    type: "number 0–1",
    default: o.default ?? String(o.fallback),
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      const n = Number(raw.trim());
      if (!/^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(raw) || n > 1)
        throw new Error(`must be a number from 0 to 1, not ${show(raw)}`);
      return n;
    },
  };
}

function text(name: string, type: string, o: Doc & { fallback?: string }): Variable<string> {
  return { name, type, default: o.default ?? o.fallback ?? "unset", fallback: o.fallback, doc: o.doc, parse: (raw) => raw };
}

function list(name: string, type: string, o: Doc & { split: string; absolute?: boolean }): Variable<string[]> {
  return {
    name,
    type,
    default: o.default ?? "unset",
    fallback: [],
    doc: o.doc,
    parse: (raw) => {
      const items = raw
        .split(o.split)
        .map((x) => x.trim())
        .filter(Boolean);
      const bad = o.absolute ? items.find((x) => !x.startsWith("/")) : undefined;
      if (bad !== undefined) throw new Error(`must list absolute folders, not ${show(bad)}`);
      return items;
    },
  };
}

function oneOf<T extends string>(name: string, values: readonly T[], o: Doc & { fallback: T }): Variable<T> {
  return {
    name,
    type: values.join(", "),
    default: o.fallback,
    fallback: o.fallback,
    doc: o.doc,
    parse: (raw) => {
      const v = raw.trim().toLowerCase();
      if (!(values as readonly string[]).includes(v)) throw new Error(`must be one of ${values.join(", ")}, not ${show(raw)}`);
      return v as T;
    },
  };
}

/** The daemon's variables, grouped as docs/settings.md shows them. */
export const VARIABLES = {
  home: text("KBOX_HOME", "folder", {
    default: "unset (XDG folders)",
    doc: "Puts everything under one folder: `data/`, `run/` (socket, pid), `logs/`. Read by the CLI too, so both find the same socket.",
  }),
  dataHome: text("XDG_DATA_HOME", "folder", {
    default: "~/.local/share",
    doc: "Without KBOX_HOME: the data (`$XDG_DATA_HOME/kbox`: knowledge boxes, models, backups).",
  }),
  runtimeDir: text("XDG_RUNTIME_DIR", "folder", {
    default: "a per-user temp folder",
    doc: "Without KBOX_HOME: the socket and pid file (`$XDG_RUNTIME_DIR/kbox`, mode 0700).",
  }),
  stateHome: text("XDG_STATE_HOME", "folder", {
    default: "~/.local/state",
    doc: "Without KBOX_HOME: the daemon log (`$XDG_STATE_HOME/kbox`).",
  }),
  logLevel: oneOf<LogLevel>("KBOX_LOG_LEVEL", LOG_LEVELS, {
    fallback: "info",
    doc: "The least level of the events written to `kboxd.log` (JSON lines; `kbox daemon logs` reads them): `debug` adds every request.",
  }),
  logRotateMb: int("KBOX_LOG_ROTATE_MB", {
    min: 1,
    fallback: 8,
    doc: "`kboxd.log` becomes `kboxd.log.1` (replacing the one before) at this size (MB): the log never takes more than twice it.",
  }),
  dataUri: text("KBOX_DATA_URI", "object-store URI (s3://bucket/prefix)", {
    doc: "Keep every table and blob on object storage instead of the data dir (which then holds only this machine's cache and staging); `kboxd --data` says the same. Several daemons may share one URI: see docs/object-storage.md.",
  }),
  awsEndpoint: url("AWS_ENDPOINT", {
    doc: "With KBOX_DATA_URI: the S3-compatible endpoint (MinIO, a local server); unset: AWS itself. Also read as AWS_ENDPOINT_URL.",
  }),
  awsEndpointUrl: url("AWS_ENDPOINT_URL", { doc: "Same as AWS_ENDPOINT (the AWS CLI's name)." }),
  awsRegion: text("AWS_REGION", "region name", { default: "us-east-1", doc: "With KBOX_DATA_URI: the bucket's region." }),
  awsAccessKeyId: text("AWS_ACCESS_KEY_ID", "key id", { doc: "With KBOX_DATA_URI: the access key (unset: anonymous)." }),
  awsSecretAccessKey: text("AWS_SECRET_ACCESS_KEY", "secret", { doc: "With KBOX_DATA_URI: the secret of AWS_ACCESS_KEY_ID." }),
  awsSessionToken: text("AWS_SESSION_TOKEN", "token", { doc: "With KBOX_DATA_URI: a temporary credential's session token." }),
  awsAllowHttp: flag("AWS_ALLOW_HTTP", {
    fallback: false,
    doc: "With KBOX_DATA_URI: allow a plain-http endpoint (a local S3-compatible server).",
  }),
  storeRefresh: duration("KBOX_STORE_REFRESH", {
    fallback: 1000,
    default: "1s",
    doc: "With KBOX_DATA_URI: how often a daemon looks for other daemons' commits to the shared tables (staleness of reads against one manifest look-up per table per interval).",
  }),
  indexCacheMb: int("KBOX_INDEX_CACHE_MB", {
    min: 1,
    fallback: 512,
    doc: "LanceDB's index cache (MB), shared by every knowledge box of the daemon.",
  }),
  metadataCacheMb: int("KBOX_METADATA_CACHE_MB", {
    min: 1,
    fallback: 64,
    doc: "LanceDB's file metadata cache (MB), shared by every knowledge box of the daemon.",
  }),
  // LanceDB's full-text index builder holds this much per worker before it writes a partition, and
  // an update loads the index's existing partitions into that budget: at LanceDB's 2048, each
  // catch-up on a big knowledge box briefly took hundreds of MB. Lower means more, smaller partitions.
  ftsPartitionMb: int("LANCE_FTS_PARTITION_SIZE", {
    min: 1,
    fallback: 256,
    doc: "LanceDB's own: MiB of posting lists a full-text index build holds per partition (LanceDB's default 2048). kboxd sets it in its process environment at start, before any table opens.",
  }),
  annMinRows: int("KBOX_ANN_MIN_ROWS", {
    min: 0,
    fallback: 25_000,
    doc: "Vectors in a vectorset below which semantic search stays exact; from there an IVF_RQ index is built in the background.",
  }),
  taskPause: int("KBOX_TASK_PAUSE_MS", {
    min: 0,
    max: 60_000,
    fallback: 0,
    doc: "Pause between two resources of a task's batch (labeler, migrator...), in ms: keeps a long task from taking a small machine.",
  }),
  ingestConcurrency: int("KBOX_INGEST_CONCURRENCY", {
    min: 1,
    max: 10_000,
    fallback: 512,
    doc: "Resources the ingestion queue processes at once (in batches of up to half of it that share their commits).",
  }),
  extractWorkers: int("KBOX_EXTRACT_WORKERS", {
    min: 1,
    max: 64,
    default: "the core count, at most 4",
    doc: "Extraction worker processes (extraction and splitting run outside the daemon's main thread).",
  }),
  fieldThreads: int("KBOX_FIELD_THREADS", {
    min: 0,
    max: 16,
    fallback: 0,
    doc: "Threads that extract small plain fields, detect languages and read entities (0: on the daemon's main thread).",
  }),
  retryDeadline: duration("KBOX_INGEST_RETRY_DEADLINE", {
    fallback: 24 * 3600_000,
    default: "24h",
    doc: "A field that keeps failing transiently this long since its first failure ends EXPIRED.",
  }),
  retryDelay: duration("KBOX_INGEST_RETRY_DELAY", {
    fallback: 2_000,
    default: "2s",
    doc: "The first retry of a transient failure waits this long; each next one twice as long.",
  }),
  retryMaxDelay: duration("KBOX_INGEST_RETRY_MAX_DELAY", {
    fallback: 600_000,
    default: "10m",
    doc: "The longest wait between two retries.",
  }),
  fetchAllowPrivate: flag("KBOX_FETCH_ALLOW_PRIVATE", {
    default: "1 with the Unix socket only, 0 with --listen",
    doc: "Every fetch the daemon makes for a request (links, sitemaps, robots.txt, model endpoints, hub mirrors) may reach loopback, private, link-local and metadata addresses. Refused otherwise, checked after DNS resolution and on every redirect (docs/security.md).",
  }),
  linksAllowPrivate: flag("KBOX_LINKS_ALLOW_PRIVATE", {
    default: "unset",
    doc: "The older name of KBOX_FETCH_ALLOW_PRIVATE, read when that one is unset.",
  }),
  fetchAllow: list("KBOX_FETCH_ALLOW", "comma-separated hosts, IPs, CIDR ranges", {
    doc: "Non-public targets the daemon may fetch even when KBOX_FETCH_ALLOW_PRIVATE is 0 (a local model server: `127.0.0.1`, `ollama.lan`, `10.1.0.0/16`). The endpoints of KBOX_OPENAI_BASE_URL, KBOX_ZONE_URL and KBOX_HF_ENDPOINT (scheme, host and port) are allowed too.",
    split: ",",
  }),
  syncRoots: list("KBOX_SYNC_ROOTS", "folders separated by `:`", {
    doc: "Folders a TCP caller's `local_folder` sync may read (the folder or one inside it). The socket's owner may sync any folder; nobody may sync a folder inside the data folder. Unset: TCP callers may sync no folder.",
    split: ":",
    absolute: true,
  }),
  ocr: flag("KBOX_OCR", {
    fallback: true,
    doc: "Read images (PNG, JPEG, TIFF, WebP) and PDF pages that have no text layer with OCR (PaddleOCR models shipped in the package, run in the extraction workers). Off: images are refused as unsupported and scanned pages stay empty.",
  }),
  entities: flag("KBOX_ENTITIES", {
    fallback: true,
    doc: "Extract named entities (people, places, organisations, dates, numbers and the box's entities groups) while ingesting: they feed relations, the graph routes, entity filters and suggest. It is the costliest step for plain text (a few ms a paragraph); off, or `ner_model: none` in a box's learning configuration, skips it.",
  }),
  modelsAutopull: flag("KBOX_MODELS_AUTOPULL", {
    fallback: true,
    doc: "Pull the default embedding model from the hub the first time a knowledge box needs one and none is installed.",
  }),
  hfEndpoint: url("KBOX_HF_ENDPOINT", {
    fallback: "https://huggingface.co",
    doc: "The model hub (or a mirror with the same layout) for automatic pulls and pulls that name no endpoint.",
  }),
  modelThreads: int("KBOX_MODEL_THREADS", {
    min: 1,
    max: 256,
    fallback: DEFAULT_MODEL_THREADS,
    doc: "Intra-op threads of each in-process ONNX model.",
  }),
  generativeModel: text("KBOX_GENERATIVE_MODEL", "model name", {
    fallback: "extractive",
    doc: "The generative model when neither the request nor the knowledge box names one: `extractive`, `openai:<model>[@<url>]`, `gguf:<path>`, `predict:<model>[@<zone url>]`, or a hosted name served by KBOX_OPENAI_BASE_URL.",
  }),
  openaiBaseUrl: url("KBOX_OPENAI_BASE_URL", {
    doc: "The OpenAI-compatible endpoint of `openai:<model>` when neither the name nor `user_keys.openai` gives one.",
  }),
  openaiApiKey: text("KBOX_OPENAI_API_KEY", "secret", {
    doc: "The API key sent to that endpoint when `user_keys.openai` has none.",
  }),
  zoneUrl: url("KBOX_ZONE_URL", {
    doc: "The zone of `predict:<model>` when neither the name nor `user_keys.predict` gives one.",
  }),
  nuaKey: text("KBOX_NUA_KEY", "secret", {
    doc: "The key sent to that zone when `user_keys.predict` has none.",
  }),
  maxUploadMb: int("KBOX_MAX_UPLOAD_MB", {
    min: 1,
    fallback: 10_240,
    doc: "The largest file an upload (direct or TUS) may send, in MB; a larger one is refused with 413 before the bytes past the limit are written.",
  }),
  zoneName: text("KBOX_ZONE_NAME", "name", {
    fallback: "local",
    doc: "The zone this daemon is: its id and slug in `GET /api/v1/zones` and the `zone` of its accounts and knowledge boxes.",
  }),
  publicUrl: url("KBOX_PUBLIC_URL", {
    doc: "The base URL clients reach this daemon at: invitation links and the issuer of signed tokens name it (default: the --listen address, else the socket).",
  }),
  contextTokens: int("KBOX_CONTEXT_TOKENS", {
    min: 1,
    fallback: 12_000,
    doc: "The context budget of an ask (tokens) when the request's `max_tokens.context` does not set one.",
  }),
  extractiveMinEvidence: share("KBOX_EXTRACTIVE_MIN_EVIDENCE", {
    fallback: 0.65,
    doc: 'The evidence (the weighted share of a question\'s informative words the best retrieved sentence and its surroundings cover; a name no passage mentions halves it) the offline extractive answerer needs to answer; below it an ask answers "Not enough data to answer this." with status `no_context`.',
  }),
  generativeMinEvidence: share("KBOX_GENERATIVE_MIN_EVIDENCE", {
    fallback: 0.15,
    doc: 'The same threshold for a generative model (lower: the model also answers "Not enough data" on its own when the context does not say).',
  }),
  activityRecord: flag("KBOX_ACTIVITY", {
    fallback: true,
    doc: "Record the activity log (searches, asks, changes, processing) of every knowledge box; 0 records nothing (the activity routes still read what is there).",
  }),
  activityRetentionMonths: int("KBOX_ACTIVITY_RETENTION_MONTHS", {
    min: 1,
    fallback: 12,
    doc: "Months of activity log kept per knowledge box (monthly partitions; older months are dropped).",
  }),
  mcpSessionIdle: duration("KBOX_MCP_SESSION_IDLE", {
    fallback: 3600_000,
    default: "1h",
    doc: "An MCP session (streamable HTTP, `/api/v1/kb/{kbid}/mcp`) that sees no request for this long is closed.",
  }),
  mcpMaxSessions: int("KBOX_MCP_MAX_SESSIONS", {
    min: 1,
    fallback: 256,
    doc: "Open MCP sessions at most; a new session closes the least recently used one beyond it.",
  }),
  oauthRedirectUrl: url("KBOX_OAUTH_REDIRECT_URL", {
    default: "KBOX_PUBLIC_URL (else the --listen address) + /api/v1/external_connections/callback",
    doc: "The redirect URL registered with the OAuth applications of drive_oauth, directory_oauth, fileshare_oauth and filebox_oauth connections: the browser comes back there with the code. It must reach this daemon's callback route.",
  }),
  driveClientId: text("KBOX_DRIVE_CLIENT_ID", "OAuth client id", {
    doc: "drive_oauth: the OAuth application's client id (unset: the provider answers 400).",
  }),
  driveClientSecret: text("KBOX_DRIVE_CLIENT_SECRET", "secret", { doc: "drive_oauth: the OAuth application's client secret." }),
  driveAuthUrl: url("KBOX_DRIVE_AUTH_URL", {
    fallback: "https://accounts.google.com/o/oauth2/v2/auth",
    doc: "drive_oauth: the authorization endpoint the user is sent to.",
  }),
  driveTokenUrl: url("KBOX_DRIVE_TOKEN_URL", {
    fallback: "https://oauth2.googleapis.com/token",
    doc: "drive_oauth: the token endpoint (code exchange, refresh).",
  }),
  driveApiUrl: url("KBOX_DRIVE_API_URL", {
    fallback: "https://www.googleapis.com/drive/v3",
    doc: "drive_oauth: the Drive-style API (drives, files, alt=media downloads).",
  }),
  directoryClientId: text("KBOX_DIRECTORY_CLIENT_ID", "OAuth client id", {
    doc: "directory_oauth: the OAuth application's client id (unset: the provider answers 400).",
  }),
  directoryClientSecret: text("KBOX_DIRECTORY_CLIENT_SECRET", "secret", {
    doc: "directory_oauth: the OAuth application's client secret.",
  }),
  directoryLoginUrl: url("KBOX_DIRECTORY_LOGIN_URL", {
    fallback: "https://login.microsoftonline.com",
    doc: "directory_oauth and directory_certificate_credentials: the identity platform; `/{tenant}/oauth2/v2.0/authorize` and `/token` are under it.",
  }),
  directoryTenant: text("KBOX_DIRECTORY_TENANT", "tenant id or name", {
    fallback: "common",
    doc: "directory_oauth: the tenant of the authorize and token URLs (certificate connections name their own).",
  }),
  directoryApiUrl: url("KBOX_DIRECTORY_API_URL", {
    fallback: "https://graph.microsoft.com/v1.0",
    doc: "directory_oauth and directory_certificate_credentials: the Graph-style API (sites, drives, items).",
  }),
  fileshareClientId: text("KBOX_FILESHARE_CLIENT_ID", "OAuth app key", {
    doc: "fileshare_oauth: the OAuth application's key (unset: the provider answers 400).",
  }),
  fileshareClientSecret: text("KBOX_FILESHARE_CLIENT_SECRET", "secret", {
    doc: "fileshare_oauth: the OAuth application's secret.",
  }),
  fileshareAuthUrl: url("KBOX_FILESHARE_AUTH_URL", {
    fallback: "https://www.dropbox.com/oauth2/authorize",
    doc: "fileshare_oauth: the authorization endpoint the user is sent to.",
  }),
  fileshareTokenUrl: url("KBOX_FILESHARE_TOKEN_URL", {
    fallback: "https://api.dropboxapi.com/oauth2/token",
    doc: "fileshare_oauth: the token endpoint.",
  }),
  fileshareApiUrl: url("KBOX_FILESHARE_API_URL", {
    fallback: "https://api.dropboxapi.com/2",
    doc: "fileshare_oauth: the RPC endpoints (files/list_folder, files/get_metadata).",
  }),
  fileshareContentUrl: url("KBOX_FILESHARE_CONTENT_URL", {
    fallback: "https://content.dropboxapi.com/2",
    doc: "fileshare_oauth: the content endpoints (files/download).",
  }),
  fileboxClientId: text("KBOX_FILEBOX_CLIENT_ID", "OAuth client id", {
    doc: "filebox_oauth: the OAuth application's client id (unset: the provider answers 400).",
  }),
  fileboxClientSecret: text("KBOX_FILEBOX_CLIENT_SECRET", "secret", {
    doc: "filebox_oauth: the OAuth application's client secret.",
  }),
  fileboxAuthUrl: url("KBOX_FILEBOX_AUTH_URL", {
    fallback: "https://account.box.com/api/oauth2/authorize",
    doc: "filebox_oauth: the authorization endpoint the user is sent to.",
  }),
  fileboxTokenUrl: url("KBOX_FILEBOX_TOKEN_URL", {
    fallback: "https://api.box.com/oauth2/token",
    doc: "filebox_oauth: the token endpoint.",
  }),
  fileboxApiUrl: url("KBOX_FILEBOX_API_URL", {
    fallback: "https://api.box.com/2.0",
    doc: "filebox_oauth: the Box-style API (folders/{id}/items, files/{id}/content).",
  }),
  stsUrl: url("KBOX_STS_URL", {
    fallback: "https://sts.amazonaws.com",
    doc: "object_store_assume_role: the STS endpoint of AssumeRole for connections that give role_arn without access keys; called with the daemon's own AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.",
  }),
} satisfies Record<string, Variable<unknown>>;

/** Read by the daemon outside the settings object (documented with the others). */
export const OTHER_VARIABLES: { name: string; type: string; default: string; doc: string }[] = [
  {
    name: "LD_PRELOAD",
    type: "library list",
    default: "unset",
    doc: "Read from the process itself, only to report the allocator (`kbox daemon status` says jemalloc when it is preloaded; the CLI preloads it when it starts kboxd).",
  },
  {
    name: "NODE_OPTIONS",
    type: "node flags",
    default: "unset",
    doc: "A `--heap-growing-percent` there replaces kboxd's own 50 % (read at start, daemon/lifecycle/heap.ts); a `--max-semi-space-size` there replaces the 32 MB `kbox` starts kboxd with (src/client/connect.ts).",
  },
];
