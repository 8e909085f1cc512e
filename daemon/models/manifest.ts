/**
 * The model cache on disk: `<data>/models/<owner>/<name>/` holds a hub repo's files as the hub lays
 * them out, plus `kbox-model.json`, written last; a folder without it is not an installed model.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OnnxSettings } from "./registry.js";

export const MANIFEST = "kbox-model.json";

/** What kbox recorded when it installed a model. */
export interface Manifest extends OnnxSettings {
  id: string;
  revision: string;
  commit?: string;
  dim: number;
  files: { path: string; size: number; sha256: string }[];
  installed_at: string;
  source: "hub" | "folder";
  /** The hub URL or the folder it came from. */
  origin: string;
}

/** The folder of an installed (or installing) model id in the cache. */
export const modelDir = (cacheDir: string, id: string) => join(cacheDir, ...id.split("/"));

/** Every installed model of the cache (a readable manifest marks one). */
export function readInstalled(cacheDir: string): Manifest[] {
  const out: Manifest[] = [];
  if (!existsSync(cacheDir)) return out;
  for (const owner of readdirSync(cacheDir, { withFileTypes: true })) {
    if (!owner.isDirectory() || owner.name.startsWith(".")) continue;
    for (const name of readdirSync(join(cacheDir, owner.name), { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      const m = readManifest(join(cacheDir, owner.name, name.name));
      if (m) out.push(m);
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}
