import { readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { isSiteAsset } from "../../src/api/assets.js";
import type { SyncConfig } from "../../src/api/sync.js";

/** Folders never synced: version control, dependencies, caches. */
const ALWAYS_IGNORED = [".git/", "node_modules/", ".hg/", ".svn/", "__pycache__/", ".DS_Store", "*.tmp", "*.swp", "*~", ".#*"];

/**
 * Decides which files of a sync root are synced: dotfiles and ALWAYS_IGNORED are skipped,
 * `.gitignore` / `.kboxignore` files anywhere in the tree apply to their folder and below (a deeper
 * file may re-include with `!`, as in git, except under an excluded folder), then the config's
 * `ignore` patterns (the last word), `file_filter` (include/exclude by extension or glob) and
 * `modified_time_range`. Site assets (src/api/assets.ts) are skipped unless an include filter names them.
 */
export class SyncFilter {
  private readonly perDir = new Map<string, Ignore | null>();
  private readonly dirVerdicts = new Map<string, boolean>();
  private readonly always: Ignore;
  private readonly extra: Ignore | null;
  private readonly globs?: ((p: string) => boolean)[];
  private readonly exts?: Set<string>;

  constructor(
    private readonly root: string,
    private readonly config: Pick<SyncConfig, "ignore" | "file_filter" | "modified_time_range">,
  ) {
    this.always = ignore().add(ALWAYS_IGNORED);
    this.extra = config.ignore?.length ? ignore().add(config.ignore) : null;
    const ff = config.file_filter;
    // A pattern without a slash matches the name at any depth (like .gitignore); one with a slash the whole path.
    if (ff?.glob_patterns?.length)
      this.globs = ff.glob_patterns.map((g) => picomatch(g.replace(/^\//, ""), { dot: false, basename: !g.includes("/") }));
    if (ff?.extensions?.length) this.exts = new Set(ff.extensions.map((e) => e.replace(/^\*?\./, "").toLowerCase()));
  }

  /** `rel` uses forward slashes; directories end with "/". */
  private ignoredByRules(rel: string): boolean {
    const bare = rel.replace(/\/$/, "");
    if (bare.split("/").some((part) => part.startsWith("."))) return true;
    if (this.always.ignores(rel)) return true;
    const parent = posix.dirname(bare);
    // Nothing under an excluded folder can be re-included (git's rule).
    if (parent !== "." && this.dirIgnored(parent)) return true;
    const parts = bare.split("/");
    let ignored = false;
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const r = this.dirRules(dir)?.test(rel.slice(dir ? dir.length + 1 : 0));
      if (r?.ignored) ignored = true;
      else if (r?.unignored) ignored = false;
    }
    const r = this.extra?.test(rel);
    if (r?.ignored) ignored = true;
    else if (r?.unignored) ignored = false;
    return ignored;
  }

  private dirIgnored(dir: string): boolean {
    let v = this.dirVerdicts.get(dir);
    if (v === undefined) {
      v = this.ignoredByRules(`${dir}/`);
      this.dirVerdicts.set(dir, v);
    }
    return v;
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
    this.dirVerdicts.clear();
  }

  /** Should the scan descend into this directory? */
  includeDir(abs: string): boolean {
    const rel = this.rel(abs);
    return rel === "" || !this.dirIgnored(rel);
  }

  /** Could a file at this path be synced (the rules alone: for a path that is gone)? */
  mayInclude(abs: string): boolean {
    const rel = this.rel(abs);
    return rel !== "" && !rel.startsWith("../") && !this.ignoredByRules(rel);
  }

  /** Is this file synced? */
  includeFile(abs: string, mtimeMs: number): boolean {
    const rel = this.rel(abs);
    if (this.ignoredByRules(rel)) return false;
    const ff = this.config.file_filter;
    let included = false;
    if (ff && (this.globs || this.exts)) {
      const name = posix.basename(rel);
      const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
      const hit = Boolean(this.exts?.has(ext) || this.globs?.some((m) => m(rel)));
      if ((ff.mode ?? "include") === "include" ? !hit : hit) return false;
      included = (ff.mode ?? "include") === "include";
    }
    // Site assets (stylesheets, scripts, fonts, search indexes) are not documents, unless asked for by name.
    if (!included && isSiteAsset(rel)) return false;
    const range = this.config.modified_time_range;
    if (range?.from && mtimeMs < Date.parse(range.from)) return false;
    if (range?.to && mtimeMs > Date.parse(range.to)) return false;
    return true;
  }

  rel(abs: string): string {
    return relative(this.root, abs).split(sep).join("/");
  }
}
