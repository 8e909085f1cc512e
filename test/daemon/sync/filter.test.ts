import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SyncFilter } from "../../../daemon/sync/filter.js";
import type { SyncConfig } from "../../../src/api/sync.js";

let root: string;
const NOW = Date.parse("2024-06-01T00:00:00Z");

function put(rel: string, text = "x"): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}

type Cfg = Partial<Pick<SyncConfig, "ignore" | "file_filter" | "modified_time_range">>;
const filter = (cfg: Cfg = {}) => new SyncFilter(root, { ignore: [], file_filter: null, modified_time_range: null, ...cfg });
const file = (f: SyncFilter, rel: string, mtime = NOW) => f.includeFile(join(root, rel), mtime);
const dir = (f: SyncFilter, rel: string) => f.includeDir(join(root, rel));

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "kbox-filter-"));
  put(".gitignore", "*.log\n!keep.log\nbuild/\n/top-only.txt\n# a comment\n\\#hash.txt\n");
  put("docs/.gitignore", "draft-*\n!draft-final.md\n");
  put("docs/deep/.kboxignore", "secret.md\n");
  put("logs/.gitignore", "!important.log\n");
  put("build/.gitignore", "!wanted.txt\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("SyncFilter: gitignore semantics", () => {
  it("applies patterns, negation and escaped names of the root .gitignore", () => {
    const f = filter();
    expect(file(f, "a.md")).toBe(true);
    expect(file(f, "a.log")).toBe(false);
    expect(file(f, "keep.log")).toBe(true);
    expect(file(f, "sub/keep.log")).toBe(true);
    expect(file(f, "#hash.txt")).toBe(false);
  });

  it("anchors a leading slash to the folder of the .gitignore", () => {
    const f = filter();
    expect(file(f, "top-only.txt")).toBe(false);
    expect(file(f, "sub/top-only.txt")).toBe(true);
  });

  it("skips ignored directories, and nothing under them can be re-included", () => {
    const f = filter();
    expect(dir(f, "build")).toBe(false);
    expect(dir(f, "src/build")).toBe(false);
    expect(file(f, "build/wanted.txt")).toBe(false);
    expect(dir(f, "docs")).toBe(true);
  });

  it("a nested .gitignore applies to its folder and below, and may re-include what a parent excluded", () => {
    const f = filter();
    expect(file(f, "docs/draft-1.md")).toBe(false);
    expect(file(f, "docs/sub/draft-2.md")).toBe(false);
    expect(file(f, "draft-3.md")).toBe(true);
    expect(file(f, "docs/draft-final.md")).toBe(true);
    expect(file(f, "logs/important.log")).toBe(true);
    expect(file(f, "logs/other.log")).toBe(false);
  });

  it("reads .kboxignore like .gitignore", () => {
    const f = filter();
    expect(file(f, "docs/deep/secret.md")).toBe(false);
    expect(file(f, "docs/secret.md")).toBe(true);
  });

  it("always skips dotfiles, VCS folders, dependencies and editor temp files", () => {
    const f = filter();
    expect(file(f, ".env")).toBe(false);
    expect(dir(f, ".git")).toBe(false);
    expect(dir(f, "a/node_modules")).toBe(false);
    expect(file(f, ".hidden/x.md")).toBe(false);
    expect(file(f, "notes.md.swp")).toBe(false);
    expect(file(f, "notes.md~")).toBe(false);
  });

  it("config ignore patterns have the last word", () => {
    const f = filter({ ignore: ["*.md", "!keep.md", "private/"] });
    expect(file(f, "x.md")).toBe(false);
    expect(file(f, "keep.md")).toBe(true);
    expect(dir(f, "private")).toBe(false);
    expect(file(f, "x.txt")).toBe(true);
    const g = filter({ ignore: ["!a.log"] });
    expect(file(g, "a.log")).toBe(true);
  });

  it("sees a changed .gitignore after reset()", () => {
    put("later/.gitignore", "");
    const f = filter();
    expect(file(f, "later/x.txt")).toBe(true);
    put("later/.gitignore", "x.txt\n");
    expect(file(f, "later/x.txt")).toBe(true);
    f.reset();
    expect(file(f, "later/x.txt")).toBe(false);
  });
});

describe("SyncFilter: file_filter and modified_time_range", () => {
  it("include by extension, with or without a dot, case-insensitive", () => {
    const f = filter({ file_filter: { mode: "include", extensions: [".md", "TXT", "*.pdf"] } });
    expect(file(f, "a.md")).toBe(true);
    expect(file(f, "deep/b.TXT")).toBe(true);
    expect(file(f, "c.pdf")).toBe(true);
    expect(file(f, "d.html")).toBe(false);
    expect(file(f, "no-extension")).toBe(false);
    // The extension is the file's, not a folder's.
    expect(file(f, "v1.md/readme")).toBe(false);
  });

  it("include by glob: a bare pattern matches names at any depth, one with a slash the path", () => {
    const f = filter({ file_filter: { mode: "include", glob_patterns: ["*.md", "docs/**/*.txt"] } });
    expect(file(f, "a.md")).toBe(true);
    expect(file(f, "x/y/a.md")).toBe(true);
    expect(file(f, "docs/a/b.txt")).toBe(true);
    expect(file(f, "other/b.txt")).toBe(false);
    // Include filters do not prune folders: matches can be anywhere below.
    expect(dir(f, "x")).toBe(true);
  });

  it("exclude mode drops what matches, extension or glob", () => {
    const f = filter({ file_filter: { mode: "exclude", extensions: ["pdf"], glob_patterns: ["archive/**"] } });
    expect(file(f, "a.md")).toBe(true);
    expect(file(f, "a.pdf")).toBe(false);
    expect(file(f, "archive/old.md")).toBe(false);
  });

  it("an empty file_filter keeps everything", () => {
    expect(file(filter({ file_filter: { mode: "include" } }), "a.bin")).toBe(true);
  });

  it("modified_time_range bounds are inclusive, either may be open", () => {
    const from = "2024-01-01T00:00:00Z";
    const to = "2024-12-31T00:00:00Z";
    const f = filter({ modified_time_range: { from, to } });
    expect(file(f, "a.md", Date.parse(from))).toBe(true);
    expect(file(f, "a.md", Date.parse(from) - 1)).toBe(false);
    expect(file(f, "a.md", Date.parse(to))).toBe(true);
    expect(file(f, "a.md", Date.parse(to) + 1)).toBe(false);
    expect(file(filter({ modified_time_range: { from } }), "a.md", Date.parse("2030-01-01"))).toBe(true);
    expect(file(filter({ modified_time_range: { to, from: null } }), "a.md", 0)).toBe(true);
  });
});
