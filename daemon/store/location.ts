/**
 * Where a store keeps its data: a local folder (the default) or an object-store URI
 * (`s3://bucket/prefix`, KBOX_DATA_URI or `kboxd --data`). With an object store, every table and blob
 * of every knowledge box lives under the URI; the local data dir keeps only what is per machine
 * (the read cache, upload staging, backups being written, the token key, models).
 */

/** Endpoint, region and credentials of an object store (the standard AWS_* variables). */
export interface ObjectStoreOptions {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Plain http to the endpoint (AWS_ALLOW_HTTP): for a local S3-compatible server. */
  allowHttp?: boolean;
  /**
   * How often a table checks for commits of other daemons, in ms (KBOX_STORE_REFRESH_MS): the
   * staleness a reader accepts in exchange for one manifest look-up per interval instead of per query.
   */
  refreshMs: number;
}

/** The data of a store on an object store. */
export interface ObjectLocation {
  /** `s3://bucket/prefix` without a trailing slash. */
  uri: string;
  bucket: string;
  /** Key prefix, no leading or trailing slash ("" for a whole bucket). */
  prefix: string;
  options: ObjectStoreOptions;
}

/** Parse `s3://bucket[/prefix]`; other schemes are refused with the reason. */
export function parseDataUri(uri: string, options: ObjectStoreOptions): ObjectLocation {
  const m = /^([a-z0-9+]+):\/\/([^/]+)(\/.*)?$/i.exec(uri.trim());
  if (!m) throw new Error(`the data URI must look like s3://bucket/prefix, got ${JSON.stringify(uri)}`);
  const scheme = m[1].toLowerCase();
  if (scheme !== "s3")
    throw new Error(
      `the data URI scheme ${scheme}:// is not supported: kbox keeps blobs through the S3 API, so use s3:// (for GCS, its S3-interoperable endpoint with HMAC keys in AWS_ENDPOINT)`,
    );
  const prefix = (m[3] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((p) => p === "." || p === ".."))
    throw new Error(`the data URI prefix may not contain . or .. segments`);
  return { uri: `s3://${m[2]}${prefix ? `/${prefix}` : ""}`, bucket: m[2], prefix, options };
}

/** The key of `rel` under the location's prefix. */
export function keyOf(loc: ObjectLocation, rel: string): string {
  return loc.prefix ? `${loc.prefix}/${rel}` : rel;
}

/** The URI of `rel` under the location (what LanceDB connects to). */
export function uriOf(loc: ObjectLocation, rel: string): string {
  return `s3://${loc.bucket}/${keyOf(loc, rel)}`;
}

/** LanceDB's storage options for the location (the names its object store reads). */
export function lanceOptions(loc: ObjectLocation): Record<string, string> {
  const o = loc.options;
  const out: Record<string, string> = {};
  if (o.endpoint) out.aws_endpoint = o.endpoint;
  if (o.region) out.aws_region = o.region;
  if (o.accessKeyId) out.aws_access_key_id = o.accessKeyId;
  if (o.secretAccessKey) out.aws_secret_access_key = o.secretAccessKey;
  if (o.sessionToken) out.aws_session_token = o.sessionToken;
  if (o.allowHttp) out.allow_http = "true";
  // A bucket on a custom endpoint (MinIO, a local server) is addressed by path, not virtual host.
  if (o.endpoint) out.aws_virtual_hosted_style_request = "false";
  return out;
}
