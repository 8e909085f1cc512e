/**
 * Sync a cloud drive's folder like a local one. Files are known by the provider's id, so a file
 * whose path changed but whose content hash did not is a move (nothing re-ingested), a changed hash
 * is an update, and an id gone from the listing is a delete. The providers list everything under the
 * folder at each run (no delta tokens are kept), so every run compares the whole folder.
 */
import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as WebStream } from "node:stream/web";
import type { SyncConfig } from "../../../src/api/sync.js";
import { filterOf, included } from "../object-store.js";
import { eachLimit } from "../pool.js";
import { fileField, labels, ownedResources } from "../resources.js";
import type { RunContext } from "../run-context.js";
import { ProviderError } from "./oauth.js";
import type { CloudApi, CloudFile } from "./types.js";

const CONCURRENCY = 4;

function origin(config: SyncConfig, f: CloudFile) {
  return {
    source_id: config.id,
    source: "kbox-sync",
    path: `/${f.path}`,
    filename: f.name,
    modified: f.modified.toISOString(),
    metadata: { size: String(f.size), sync_config: config.name, provider_path: f.path },
    sync_metadata: { file_id: f.id, content_hash: f.hash, auth_provider: config.external_connection.provider },
  };
}

/** A file's bytes as the stream a file field is written from. */
function source(api: CloudApi, f: CloudFile) {
  return () => {
    const out = new PassThrough();
    api.download(f).then(
      async (res) => {
        if (!res.ok || !res.body) return out.destroy(new ProviderError(`downloading ${f.path}`, res.status, await res.text()));
        Readable.fromWeb(res.body as unknown as WebStream<Uint8Array>)
          .on("error", (e) => out.destroy(e))
          .pipe(out);
      },
      (e) => out.destroy(e),
    );
    return out;
  };
}

/** The configuration's files: listed by the provider, filtered by its file filter and time range. */
async function listing(ctx: Pick<RunContext, "config" | "signal">, api: CloudApi): Promise<Map<string, CloudFile>> {
  const filter = filterOf(ctx.config);
  const out = new Map<string, CloudFile>();
  for await (const f of api.files(ctx.config, ctx.signal)) if (included(filter, f.path, f)) out.set(f.id, f);
  return out;
}

export async function syncCloud(ctx: RunContext, api: CloudApi, opts: { full: boolean }): Promise<void> {
  const { config, stats } = ctx;
  const files = await listing(ctx, api);
  const owned = ownedResources(ctx.store, config.id);
  await eachLimit(
    [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
    CONCURRENCY,
    async (f) => {
      stats.scanned++;
      const res = owned.get(f.id);
      await ctx.attempt(f.path, async () => {
        if (!res) {
          const created = await ctx.resources.create(
            ctx.kbid,
            { title: f.name, origin: origin(config, f), ...labels(config), files: { file: fileField(config, f.name) } },
            { fileSources: { file: source(api, f) } },
          );
          stats.added++;
          return ctx.log("INFO", `added ${f.path}`, { rid: created.uuid, path: f.path, file_id: f.id });
        }
        const same = res.origin?.sync_metadata?.content_hash === f.hash;
        const was = res.origin?.path?.replace(/^\//, "");
        if (same && !opts.full && was === f.path) return void stats.unchanged++;
        if (same && !opts.full) {
          const named = res.title === res.origin?.filename;
          await ctx.resources.update(
            ctx.kbid,
            { rid: res.id },
            { ...(named ? { title: f.name } : {}), origin: origin(config, f) },
          );
          stats.moved++;
          return ctx.log("INFO", `moved ${was} -> ${f.path}`, { rid: res.id, from: was, path: f.path });
        }
        await ctx.resources.update(
          ctx.kbid,
          { rid: res.id },
          { origin: origin(config, f), ...labels(config), files: { file: fileField(config, f.name) } },
          { fileSources: { file: source(api, f) } },
        );
        stats.updated++;
        await ctx.log("INFO", `updated ${f.path}`, { rid: res.id, path: f.path });
      });
    },
    ctx.signal,
  );
  await eachLimit(
    [...owned.entries()].filter(([id]) => !files.has(id)),
    CONCURRENCY,
    ([, r]) => {
      const path = r.origin?.path?.replace(/^\//, "") ?? r.id;
      return ctx.attempt(path, async () => {
        await ctx.resources.delete(ctx.kbid, { rid: r.id });
        stats.deleted++;
        await ctx.log("INFO", `deleted ${path}`, { rid: r.id, path });
      });
    },
    ctx.signal,
  );
}

/** Validate Resources: each file id (the provider's id, or a path below the folder) exists there and passes the filters. */
export async function validateCloud(config: SyncConfig, api: CloudApi, fileIds: string[]) {
  const filter = filterOf(config);
  const all = new Map<string, CloudFile>();
  for await (const f of api.files(config)) {
    all.set(f.id, f);
    all.set(f.path, f);
  }
  const valid: { file_id: string }[] = [];
  const invalidOnes: { resource: { file_id: string }; reason: string }[] = [];
  for (const file_id of fileIds) {
    const f = all.get(file_id) ?? all.get(file_id.replace(/^\/+/, ""));
    if (!f) invalidOnes.push({ resource: { file_id }, reason: "no such file in the configuration's folder" });
    else if (!included(filter, f.path, f))
      invalidOnes.push({ resource: { file_id }, reason: "excluded by the configuration's filters or time range" });
    else valid.push({ file_id });
  }
  return { valid_resources: valid, invalid_resources: invalidOnes };
}
