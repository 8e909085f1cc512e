import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import type { SyncConfig } from "../../src/api/sync.js";

/** Folders never synced: version control, dependencies, caches. */
const ALWAYS_IGNORED = [".git/", "node_modules/", ".hg/", ".svn/", "__pycache__/", ".DS_Store", "*.tmp", "*.swp", "*~", ".#*"];

/**
 * Decides which files of a sync root are synced: dotfiles and ALWAYS_IGNORED are skipped,
 * `.gitignore` / `.kboxignore` files anywhere in the tree apply to their folder and below, then
 * the config's `ignore` patterns, `file_filter` (include/exclude by extension or glob) and
 * `modified_time_range`.
 */
export class SyncFilter {
  private readonly perDir = new Map<string, Ignore | null>();
  private readonly base: Ignore;
  private readonly globs?: (p: string) => boolean;
  private readonly exts?: Set<string>;

  constructor(
    private readonly root: string,
    private readonly config: Pick<SyncConfig, "ignore" | "file_filter" | "modified_time_range">,
  ) {
    this.base = ignore().add(ALWAYS_IGNORED).add(config.ignore ?? []);
    const ff = config.file_filter;
    if (ff?.glob_patterns?.length) this.globs = picomatch(ff.glob_patterns, { dot: false, basename: !ff.glob_patterns.some((g) => g.includes("/")) });
    if (ff?.extensions?.length) this.exts = new Set(ff.extensions.map((e) => e.replace(/^\*?\./, "").toLowerCase()));
  }

  /** `rel` uses forward slashes; directories end with "/". */
  private ignoredByRules(rel: string): boolean {
    if (rel.split("/").some((part) => part.startsWith(".") && part !== "")) return true;
    if (this.base.ignores(rel)) return true;
    const parts = rel.replace(/\/$/, "").split("/");
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const ig = this.dirRules(dir);
      if (ig?.ignores(rel.slice(dir ? dir.length + 1 : 0))) return true;
    }
    return false;
  }

  private dirRules(dir: string): Ignore | null {
    if (this.perDir.has(dir)) return this.perDir.get(dir) ?? null;
    let ig: Ignore | null = null;
    for (const name of [".gitignore", ".kboxignore"]) {
      try {
        const text = readFileSync(join(this.root, dir, name), "utf8");
        ig = (ig ?? ignore()).add(text);
      } catch {
        /* no such file */
      }
    }
    this.perDir.set(dir, ig);
    return ig;
  }

  /** Forget cached ignore files (they may have changed). */
  reset(): void {
    this.perDir.clear();
  }

  /** Should the scan descend into this directory? */
  includeDir(abs: string): boolean {
    const rel = this.rel(abs);
    return rel === "" || !this.ignoredByRules(`${rel}/`);
  }

  /** Is this file synced? */
  includeFile(abs: string, mtimeMs: number): boolean {
    const rel = this.rel(abs);
    if (this.ignoredByRules(rel)) return false;
    const ff = this.config.file_filter;
    if (ff && (this.globs || this.exts)) {
      const ext = rel.includes(".") ? rel.slice(rel.lastIndexOf(".") + 1).toLowerCase() : "";
      const hit = Boolean(this.exts?.has(ext) || this.globs?.(rel));
      if ((ff.mode ?? "include") === "include" ? !hit : hit) return false;
    }
    const range = this.config.modified_time_range;
    if (range?.from && mtimeMs < Date.parse(range.from)) return false;
    if (range?.to && mtimeMs > Date.parse(range.to)) return false;
    return true;
  }

  rel(abs: string): string {
    return relative(this.root, abs).split(sep).join("/");
  }
}
