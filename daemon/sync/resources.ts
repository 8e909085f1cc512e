import { createHash } from "node:crypto";
import { basename } from "node:path";
import { contentTypeOf } from "../../src/api/mime.js";
import type { SyncConfig } from "../../src/api/sync.js";
import type { ResourceService } from "../resources/service.js";
import type { KbStore, ResourceDoc } from "../store/index.js";
import { READ_ONCE_BYTES, readIfSmall, streamNoFollow } from "./local-read.js";

/** A file seen in a sync root. */
export interface LocalFile {
  /** Path relative to the sync root, forward slashes. */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  /** 512-byte blocks on disk (a sparse file has far fewer than its size). */
  blocks?: number;
  hash?: string;
  /** The bytes of a small file, read once with its hash: its blob is written from them. */
  bytes?: Buffer;
}

/** SHA-256 of a file; a small file is read once and its bytes kept on `f` for its blob, a larger one streamed. */
export async function hashFile(f: LocalFile): Promise<string> {
  if (f.size <= READ_ONCE_BYTES) {
    const { bytes } = readIfSmall(f.abs);
    f.bytes = bytes;
    if (bytes) return createHash("sha256").update(bytes).digest("hex");
  }
  const h = createHash("sha256");
  const kept: Buffer[] = [];
  let n = 0;
  for await (const chunk of streamNoFollow(f.abs)) {
    h.update(chunk as Buffer);
    n += (chunk as Buffer).length;
    if (n <= READ_ONCE_BYTES) kept.push(chunk as Buffer);
  }
  f.bytes = n <= READ_ONCE_BYTES ? Buffer.concat(kept) : undefined;
  return h.digest("hex");
}

/** The bytes of a synced file: those read with its hash, else the file. */
const sourceOf = (f: LocalFile) => () => {
  const bytes = f.bytes;
  f.bytes = undefined; // read once: not held after its blob is written
  return bytes ?? streamNoFollow(f.abs);
};

/**
 * Resources a sync configuration owns, by their sync file id (relative path or URL): all of them, or
 * those of the listed ids (a watch batch: a look-up each, whatever the size of the box).
 */
export function ownedResources(store: KbStore, configId: string, only?: Iterable<string>): Map<string, ResourceDoc> {
  const index = store.origins.owned(configId);
  const out = new Map<string, ResourceDoc>();
  const take = (file: string, rid: string | undefined) => {
    const r = rid === undefined ? undefined : store.resources.get(rid);
    if (r) out.set(file, r);
  };
  if (only) for (const file of only) take(file, index.get(file));
  else for (const [file, rid] of index) take(file, rid);
  return out;
}

function origin(config: SyncConfig, f: LocalFile) {
  return {
    source_id: config.id,
    source: "kbox-sync",
    path: `/${f.rel}`,
    filename: basename(f.rel),
    modified: new Date(f.mtimeMs).toISOString(),
    metadata: { size: String(f.size), sync_config: config.name },
    sync_metadata: { file_id: f.rel, content_hash: f.hash ?? null, auth_provider: "local_folder" },
  };
}

export const labels = (config: SyncConfig) => (config.labels.length ? { usermetadata: { classifications: config.labels } } : {});

/** A synced file's field: its name and type, and the configuration's extract strategy. */
export const fileField = (config: SyncConfig, filename: string) => ({
  file: { filename, content_type: contentTypeOf(filename) },
  ...(config.extract_strategy ? { extract_strategy: config.extract_strategy } : {}),
});

/** Create a resource for a new file, streaming its bytes into the blob store. */
export async function createFromFile(
  resources: ResourceService,
  kbid: string,
  config: SyncConfig,
  f: LocalFile,
): Promise<string> {
  const filename = basename(f.rel);
  const res = await resources.create(
    kbid,
    {
      title: filename,
      origin: origin(config, f),
      ...labels(config),
      files: { file: fileField(config, filename) },
    },
    { fileSources: { file: sourceOf(f) } },
  );
  return res.uuid;
}

/** Replace a changed file's content (re-ingested; unchanged paragraphs keep their vectors). */
export async function updateFromFile(
  resources: ResourceService,
  kbid: string,
  config: SyncConfig,
  rid: string,
  f: LocalFile,
): Promise<void> {
  const filename = basename(f.rel);
  await resources.update(
    kbid,
    { rid },
    { origin: origin(config, f), ...labels(config), files: { file: fileField(config, filename) } },
    { fileSources: { file: sourceOf(f) } },
  );
}

/** A rename or move: same content, new path; nothing is re-embedded. */
export async function moveTo(
  resources: ResourceService,
  kbid: string,
  config: SyncConfig,
  res: ResourceDoc,
  f: LocalFile,
): Promise<void> {
  // The title follows the file name only while it is the file name (not a page's or heading's title).
  const named = !res.title || res.title === res.origin?.filename || res.title === basename(res.origin?.path ?? "");
  await resources.update(kbid, { rid: res.id }, { ...(named ? { title: basename(f.rel) } : {}), origin: origin(config, f) });
}
