/**
 * Which folders a sync may read, and which URLs a sitemap sync may start from. A folder root is
 * one the daemon's owner allowed: chosen over the Unix socket (the owner), or inside a folder of
 * KBOX_SYNC_ROOTS; never the daemon's data folder or a folder inside it (other boxes' blobs), and
 * never a folder that exposes it. Paths are compared after resolving symlinks.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { KboxError } from "../errors.js";
import { checkTarget, type FetchPolicy } from "../net/outbound.js";
import type { CloudSettings } from "./cloud/types.js";

/** Sync's settings (daemon/settings). */
export interface SyncSettings {
  /** Folders TCP callers may sync, and folders inside them (KBOX_SYNC_ROOTS). */
  roots: readonly string[];
  /** The daemon's data folder: never synced. */
  dataDir: string;
  /** What sitemap syncs may fetch (daemon/net/outbound.ts). */
  fetch: FetchPolicy;
  /** The cloud providers' endpoints and OAuth applications. */
  cloud: CloudSettings;
}

/** Who asks for a sync root: the socket's owner may choose any folder. */
export interface Caller {
  owner: boolean;
}

const real = (p: string): string | undefined => {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
};

/** `child` is `parent` or inside it (both resolved). */
export const within = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/**
 * The resolved root of a local_folder sync, or a 4xx: 400 when it is not an absolute existing folder,
 * 403 when the caller may not sync it.
 */
export function checkFolderRoot(root: string | null, s: SyncSettings, caller: Caller): string {
  if (!root || !isAbsolute(root))
    throw new KboxError(400, "sync_root_path must be an absolute folder path for a local_folder connection");
  const r = real(root);
  let dir = false;
  try {
    dir = r !== undefined && statSync(r).isDirectory();
  } catch {}
  if (!r || !dir) throw new KboxError(400, `sync root ${root} is not a folder`);
  const data = real(s.dataDir) ?? s.dataDir;
  if (within(r, data))
    throw new KboxError(403, `sync root ${root} is inside the daemon's data folder; knowledge boxes' files are never synced`);
  // A root above the data folder would expose it, unless the way down passes a dot folder (never synced).
  if (
    within(data, r) &&
    !relative(r, data)
      .split(sep)
      .some((part) => part.startsWith("."))
  )
    throw new KboxError(403, `sync root ${root} contains the daemon's data folder; choose a folder that does not`);
  if (!caller.owner && !s.roots.some((allowed) => within(r, real(allowed) ?? allowed)))
    throw new KboxError(
      403,
      `sync root ${root} is not in a folder the daemon's owner allowed (KBOX_SYNC_ROOTS${s.roots.length ? `: ${s.roots.join(":")}` : " is unset"}); the owner may add it over the Unix socket`,
    );
  return r;
}

/** Is a path (a file or folder met during a sync) still inside its resolved root? Symlinks out are not. */
export function insideRoot(path: string, resolvedRoot: string): boolean {
  const r = real(path);
  return r !== undefined && within(r, resolvedRoot);
}

/** A sitemap root: an http(s) URL the outbound policy allows (403 otherwise). */
export function checkSitemapRoot(root: string | null, s: SyncSettings): string {
  if (!/^https?:\/\//i.test(root ?? ""))
    throw new KboxError(400, "sync_root_path must be the sitemap's http(s) URL for a sitemap connection");
  checkTarget(root as string, s.fetch);
  return root as string;
}
