import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { isSiteAsset } from "../client/assets.js";

/** One compiled ignore pattern (gitignore syntax) of a directory. */
interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/** A glob of gitignore syntax as a regular expression over `/`-separated relative paths. */
function globRe(glob: string, anchored: boolean): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${anchored ? "" : "(?:.*/)?"}${re}(?:/.*)?$`);
}

/** Parse a .gitignore / .kboxignore file. */
export function parseIgnore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    // A slash at the start or in the middle anchors the pattern to the ignore file's directory.
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line) rules.push({ re: globRe(line, anchored), negate, dirOnly });
  }
  return rules;
}

const IGNORE_FILES = [".gitignore", ".kboxignore"];

/** Rules of every ignore file met on the way down, each with the directory it applies to. */
type Scope = { dir: string; rules: Rule[] }[];

function ignored(scopes: Scope, path: string, isDir: boolean): boolean {
  let out = false;
  for (const { dir, rules } of scopes) {
    const rel = relative(dir, path).split(sep).join("/");
    for (const r of rules) {
      if (r.dirOnly && !isDir) {
        // `build/` also ignores files under a directory named build.
        const parent = rel.split("/").slice(0, -1).join("/");
        if (!parent || !r.re.test(parent)) continue;
      } else if (!r.re.test(rel)) continue;
      out = !r.negate;
    }
  }
  return out;
}

/**
 * Every file under `root`, depth first in name order: dotfiles and dot-directories are skipped, as
 * is everything matched by a .gitignore or .kboxignore pattern of `root` or of a folder below it, and
 * site assets (stylesheets, scripts, fonts, search indexes). `include` globs (gitignore syntax) keep
 * only the files they match, assets included; `exclude` globs drop what they match.
 */
export function walkFiles(root: string, filter: { include?: string[]; exclude?: string[] } = {}): string[] {
  const out: string[] = [];
  const include = (filter.include ?? []).map((g) => globRe(g.replace(/^\//, ""), g.includes("/")));
  const exclude = (filter.exclude ?? []).map((g) => globRe(g.replace(/^\//, ""), g.includes("/")));
  const wanted = (p: string) => {
    const rel = relative(root, p).split(sep).join("/");
    if (exclude.some((re) => re.test(rel))) return false;
    if (include.length) return include.some((re) => re.test(rel));
    return !isSiteAsset(rel);
  };
  const visit = (dir: string, scopes: Scope) => {
    const own = IGNORE_FILES.map((f) => join(dir, f)).filter((f) => existsSync(f));
    const here = own.length ? [...scopes, { dir, rules: own.flatMap((f) => parseIgnore(readFileSync(f, "utf8"))) }] : scopes;
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue;
      const p = join(dir, name);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(p);
      } catch {
        continue; // a dangling link
      }
      if (ignored(here, p, st.isDirectory())) continue;
      if (st.isDirectory()) visit(p, here);
      else if (st.isFile() && wanted(p)) out.push(p);
    }
  };
  visit(root, []);
  return out;
}

/** `origin.path` of a file found under a folder given on the command line: `/{folder name}/{relative path}`. */
export function originPath(root: string, file: string): string {
  return `/${[basename(root), ...relative(root, file).split(sep)].join("/")}`;
}
