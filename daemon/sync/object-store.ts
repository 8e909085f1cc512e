import { posix } from "node:path";
import { PassThrough } from "node:stream";
import { z } from "zod";
import type { SyncConfig } from "../../src/api/sync.js";
import { badRequest, invalid } from "../errors.js";
import { checkTarget, type FetchPolicy } from "../net/outbound.js";
import type { Bucket, ObjectInfo } from "../store/bucket.js";
import type { ResourceDoc } from "../store/index.js";
import type { CloudSettings } from "./cloud/types.js";
import { SyncFilter } from "./filter.js";
import { eachLimit } from "./pool.js";
import { fileField, labels, ownedResources } from "./resources.js";
import type { RunContext } from "./run-context.js";
import { assumeRole } from "./sts.js";

/**
 * The object-store provider's credentials: the spec's role reference and external id (the daemon
 * assumes the role through STS with its own AWS credentials, sts.ts), or access keys (and an
 * endpoint for an S3-compatible service).
 */
export const ObjectCredentials = z.strictObject({
  role_arn: z.string().max(2048).optional(),
  external_id: z.string().max(1224).optional(),
  endpoint: z.string().url().optional(),
  region: z.string().max(64).optional(),
  access_key_id: z.string().max(256).optional(),
  secret_access_key: z.string().max(1024).optional(),
  session_token: z.string().max(8192).optional(),
});
export type ObjectCredentials = z.infer<typeof ObjectCredentials>;

const issue = (type: string, loc: (string | number)[], msg: string, input: unknown) => ({ type, loc, msg, input });

/** Check a create body's credentials for the object-store provider (422 located under body.credentials). */
export function parseObjectCredentials(raw: unknown): ObjectCredentials {
  if (!raw) throw invalid([issue("missing", ["body", "credentials"], "The object-store provider requires credentials", raw)]);
  const r = ObjectCredentials.safeParse(raw);
  if (!r.success)
    throw invalid(r.error.issues.map((i) => issue(i.code, ["body", "credentials", ...i.path.map(String)], i.message, raw)));
  const c = r.data;
  if (!c.role_arn && !c.access_key_id)
    throw invalid([
      issue("missing", ["body", "credentials"], "Give role_arn (and external_id) or access_key_id and secret_access_key", raw),
    ]);
  if (c.access_key_id && !c.secret_access_key)
    throw invalid([issue("missing", ["body", "credentials", "secret_access_key"], "access_key_id needs secret_access_key", raw)]);
  return c;
}

/**
 * A client of the bucket a connection reaches: with its access keys, or with the temporary
 * credentials of its role (STS AssumeRole with the daemon's own credentials, sts.ts).
 */
export async function openBucket(
  c: ObjectCredentials,
  bucket: string,
  policy: FetchPolicy,
  role?: { externalId: string; cloud: Pick<CloudSettings, "stsUrl" | "aws"> },
): Promise<Bucket> {
  if (c.endpoint) checkTarget(c.endpoint, policy);
  if (!c.access_key_id) {
    if (!c.role_arn || !role) throw badRequest("This connection has neither access keys nor a role to assume");
    const t = await assumeRole(c.role_arn, c.external_id ?? role.externalId, role.cloud, policy);
    c = { ...c, access_key_id: t.accessKeyId, secret_access_key: t.secretAccessKey, session_token: t.sessionToken };
  }
  // Loaded on first use: most daemons never sync a bucket.
  const { Bucket, s3Client } = await import("../store/bucket.js");
  const client = s3Client({
    endpoint: c.endpoint,
    region: c.region,
    accessKeyId: c.access_key_id,
    secretAccessKey: c.secret_access_key,
    sessionToken: c.session_token,
  });
  return new Bucket(client, bucket);
}

/** The key prefix a config syncs: folder_id, else sync_root_path; "" or ending in "/". */
export function configPrefix(config: Pick<SyncConfig, "folder_id" | "sync_root_path">): string {
  const p = (config.folder_id ?? config.sync_root_path ?? "").replace(/^\/+/, "");
  return p && !p.endsWith("/") ? `${p}/` : p;
}

/** The bucket of a config: drive_id (the spec's rule for this provider). */
export function configBucket(config: Pick<SyncConfig, "drive_id">): string {
  if (!config.drive_id) throw badRequest("The object-store provider requires drive_id (the bucket name)");
  return config.drive_id;
}

/** Keys are filtered as paths under a root no file system has: ignore files are never read. */
const ROOT = "/kbox-object-store";
export const filterOf = (config: SyncConfig) => new SyncFilter(ROOT, config);
/** A key (or a cloud file's path) relative to the synced prefix passes the configuration's filters. */
export const included = (f: SyncFilter, rel: string, o: Pick<ObjectInfo, "modified">) =>
  !rel.endsWith("/") &&
  rel
    .split("/")
    .slice(0, -1)
    .every((_, i, a) => f.includeDir(posix.join(ROOT, ...a.slice(0, i + 1)))) &&
  f.includeFile(posix.join(ROOT, rel), o.modified.getTime());

function origin(config: SyncConfig, rel: string, o: ObjectInfo) {
  return {
    source_id: config.id,
    source: "kbox-sync",
    path: `/${rel}`,
    filename: posix.basename(rel),
    modified: o.modified.toISOString(),
    metadata: { size: String(o.size), etag: o.etag, bucket: config.drive_id ?? "", sync_config: config.name },
    sync_metadata: { file_id: rel, content_hash: `etag:${o.etag}`, auth_provider: "object_store_assume_role" },
  };
}

/** An object's bytes as the stream a file field is written from. */
function source(bucket: Bucket, key: string) {
  return () => {
    const out = new PassThrough();
    bucket.stream(key).then(
      (s) => s.on("error", (e) => out.destroy(e)).pipe(out),
      (e) => out.destroy(e),
    );
    return out;
  };
}

const CONCURRENCY = 8;

/**
 * Sync a bucket prefix like a folder: new objects are added, objects whose ETag changed are
 * updated, objects gone are deleted, and an object gone under one key and new under another with
 * the same ETag is a move (nothing re-ingested).
 */
export async function syncObjectStore(ctx: RunContext, bucket: Bucket, opts: { full: boolean }): Promise<void> {
  const { config, stats } = ctx;
  const prefix = configPrefix(config);
  const filter = filterOf(config);
  const objects = new Map<string, ObjectInfo>();
  for await (const o of bucket.list(prefix)) {
    if (ctx.signal?.aborted) throw new Error("cancelled");
    const rel = o.key.slice(prefix.length);
    if (rel && included(filter, rel, o)) objects.set(rel, o);
  }
  const owned = ownedResources(ctx.store, config.id);
  const fresh: string[] = [];
  await eachLimit(
    [...objects.keys()].sort(),
    CONCURRENCY,
    async (rel) => {
      stats.scanned++;
      const o = objects.get(rel)!;
      const res = owned.get(rel);
      if (!res) return void fresh.push(rel);
      if (!opts.full && res.origin?.sync_metadata?.content_hash === `etag:${o.etag}`) {
        stats.unchanged++;
        return;
      }
      await ctx.attempt(rel, async () => {
        await ctx.resources.update(
          ctx.kbid,
          { rid: res.id },
          { origin: origin(config, rel, o), ...labels(config), files: { file: fileField(config, posix.basename(rel)) } },
          { fileSources: { file: source(bucket, o.key) } },
        );
        stats.updated++;
        await ctx.log("INFO", `updated ${rel}`, { rid: res.id, path: rel });
      });
    },
    ctx.signal,
  );
  const gone = [...owned.entries()].filter(([rel]) => !objects.has(rel));
  const goneByEtag = new Map<string, [string, ResourceDoc]>();
  for (const [rel, r] of gone) {
    const h = r.origin?.sync_metadata?.content_hash;
    if (h) goneByEtag.set(h, [rel, r]);
  }
  const movedFrom = new Set<string>();
  await eachLimit(
    fresh,
    CONCURRENCY,
    (rel) =>
      ctx.attempt(rel, async () => {
        const o = objects.get(rel)!;
        const from = goneByEtag.get(`etag:${o.etag}`);
        if (from) {
          goneByEtag.delete(`etag:${o.etag}`);
          movedFrom.add(from[0]);
          const named = from[1].title === from[1].origin?.filename;
          await ctx.resources.update(
            ctx.kbid,
            { rid: from[1].id },
            { ...(named ? { title: posix.basename(rel) } : {}), origin: origin(config, rel, o) },
          );
          stats.moved++;
          return ctx.log("INFO", `moved ${from[0]} -> ${rel}`, { rid: from[1].id, from: from[0], path: rel });
        }
        const name = posix.basename(rel);
        const created = await ctx.resources.create(
          ctx.kbid,
          { title: name, origin: origin(config, rel, o), ...labels(config), files: { file: fileField(config, name) } },
          { fileSources: { file: source(bucket, o.key) } },
        );
        stats.added++;
        await ctx.log("INFO", `added ${rel}`, { rid: created.uuid, path: rel });
      }),
    ctx.signal,
  );
  await eachLimit(
    gone.filter(([rel]) => !movedFrom.has(rel)),
    CONCURRENCY,
    ([rel, r]) =>
      ctx.attempt(rel, async () => {
        await ctx.resources.delete(ctx.kbid, { rid: r.id });
        stats.deleted++;
        await ctx.log("INFO", `deleted ${rel}`, { rid: r.id, path: rel });
      }),
    ctx.signal,
  );
}

/** Which of `fileIds` (keys relative to the config's prefix, or whole keys) exist and would be synced. */
export async function validateObjects(config: SyncConfig, bucket: Bucket, fileIds: string[]) {
  const prefix = configPrefix(config);
  const filter = filterOf(config);
  const valid: { file_id: string }[] = [];
  const invalidOnes: { resource: { file_id: string }; reason: string }[] = [];
  for (const file_id of fileIds) {
    const rel = prefix && file_id.startsWith(prefix) ? file_id.slice(prefix.length) : file_id.replace(/^\/+/, "");
    const o = await bucket.head(`${prefix}${rel}`);
    if (!o) invalidOnes.push({ resource: { file_id }, reason: `no object ${prefix}${rel} in bucket ${bucket.name}` });
    else if (!included(filter, rel, o))
      invalidOnes.push({ resource: { file_id }, reason: "excluded by the configuration's filters or time range" });
    else valid.push({ file_id });
  }
  return { valid_resources: valid, invalid_resources: invalidOnes };
}

/** Browse Storage for the object-store provider: the prefixes ("folders") under a path of a bucket. */
export async function browseObjects(bucket: Bucket, path: string, pageToken?: string) {
  const prefix = path.replace(/^\/+/, "");
  const p = prefix && !prefix.endsWith("/") ? `${prefix}/` : prefix;
  const page = await bucket.children(p, 1000, pageToken);
  return {
    sites: [],
    drives: [{ id: bucket.name, name: bucket.name, drive_type: "bucket", web_url: null }],
    folders: page.prefixes.map((f) => ({ id: f, name: posix.basename(f.replace(/\/$/, "")), path: f, web_url: null })),
    next_page_token: page.next ?? null,
  };
}
