/**
 * The daemon's model settings, `<data>/models/settings.json` (mode 0600: it may hold API keys):
 * the default embedder and reranker chosen by `kbox models use`, and the remote entries.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RemoteEntry } from "./remote.js";

export interface ModelSettings {
  /** The default embedder's name (a hub id or `openai:<n>` / `predict:<n>`). */
  default?: string;
  reranker?: string;
  /** Pull the default model on first use when none is installed (default true). */
  autopull?: boolean;
  remotes: Record<string, RemoteEntry>;
}

export class SettingsFile {
  private readonly file: string;
  private cached?: ModelSettings;

  constructor(private readonly dir: string) {
    this.file = join(dir, "settings.json");
  }

  get(): ModelSettings {
    if (this.cached) return this.cached;
    try {
      const s = JSON.parse(readFileSync(this.file, "utf8")) as Partial<ModelSettings>;
      this.cached = { ...s, remotes: s.remotes ?? {} };
    } catch {
      this.cached = { remotes: {} };
    }
    return this.cached;
  }

  /** Apply a change and write it atomically. */
  update(fn: (s: ModelSettings) => void): ModelSettings {
    const next = structuredClone(this.get());
    fn(next);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.cached = next;
    return next;
  }
}
