import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SyncFilter } from "../../../daemon/sync/filter.js";
import { FolderWatcher, quietMs } from "../../../daemon/sync/watcher.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const config = { ignore: [], file_filter: null, modified_time_range: null };

let root: string;
let watcher: FolderWatcher;
/** Every batch reported, with the time it came (ms after the test's clock started). */
let batches: { at: number; paths: string[] }[];
let t0: number;

async function start(): Promise<void> {
  batches = [];
  watcher = new FolderWatcher(root, new SyncFilter(root, config), (paths) =>
    batches.push({ at: performance.now() - t0, paths: [...paths].sort() }),
  );
  await watcher.start();
}

const reported = () => batches.flatMap((b) => b.paths);
async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (ok()) return;
  throw new Error(`${what}: not reported (${JSON.stringify(batches)})`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kbox-watcher-"));
  t0 = performance.now();
});
afterEach(async () => {
  await watcher?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("folder watcher", () => {
  it("watches folders, not files: one watch per synced folder however many files they hold", async () => {
    for (const d of ["a", "a/b", "c", ".hidden", "node_modules"]) mkdirSync(join(root, d), { recursive: true });
    for (let i = 0; i < 200; i++) writeFileSync(join(root, i % 2 ? "a/b" : "c", `n${i}.md`), `note ${i}`);
    await start();
    expect(watcher.watched).toBe(4); // the root, a, a/b, c (dot-folders and node_modules are not synced)
  });

  it("reports a saved file once it has been quiet for its window, not before", async () => {
    await start();
    t0 = performance.now();
    writeFileSync(join(root, "note.md"), "hello");
    await until("the save", () => reported().includes("note.md"));
    const at = batches[0].at;
    expect(at).toBeGreaterThanOrEqual(quietMs(5) - 5);
    expect(at).toBeLessThan(quietMs(5) + 1000);
    expect(reported()).toEqual(["note.md"]);
  });

  it("a file written in two parts with a pause shorter than its window is reported once, after the second", async () => {
    await start();
    writeFileSync(join(root, "slow.txt"), "first half");
    await sleep(quietMs(0) / 2);
    const second = performance.now() - t0;
    appendFileSync(join(root, "slow.txt"), " second half");
    await until("the file", () => reported().includes("slow.txt"));
    await sleep(quietMs(0) + 100);
    expect(reported()).toEqual(["slow.txt"]);
    expect(batches[0].at).toBeGreaterThanOrEqual(second + quietMs(0) - 5);
  });

  it("a new folder is watched and its files reported; a removed folder is reported as dir/", async () => {
    await start();
    mkdirSync(join(root, "new/deep"), { recursive: true });
    writeFileSync(join(root, "new/deep/x.md"), "x");
    writeFileSync(join(root, "new/y.md"), "y");
    await until("the new files", () => reported().includes("new/deep/x.md") && reported().includes("new/y.md"));
    expect(watcher.watched).toBe(3);
    // Live in the new folder: a later file there is heard too.
    writeFileSync(join(root, "new/deep/z.md"), "z");
    await until("the later file", () => reported().includes("new/deep/z.md"));
    batches = [];
    rmSync(join(root, "new"), { recursive: true });
    await until("the removal", () => reported().includes("new/"));
    await sleep(50);
    expect(watcher.watched).toBe(1);
  });

  it("a renamed folder: the old name as dir/, the files under the new one", async () => {
    mkdirSync(join(root, "zoo/cats"), { recursive: true });
    writeFileSync(join(root, "zoo/cats/lynx.txt"), "lynx");
    await start();
    renameSync(join(root, "zoo"), join(root, "wildlife"));
    await until("the move", () => reported().includes("zoo/") && reported().includes("wildlife/cats/lynx.txt"));
    expect(reported()).not.toContain("zoo/cats/lynx.txt");
    // The old name's watches are gone; the new one's are live.
    writeFileSync(join(root, "wildlife/cats/puma.txt"), "puma");
    await until("a file in the moved folder", () => reported().includes("wildlife/cats/puma.txt"));
    expect(watcher.watched).toBe(3);
  });

  it("a deleted file is reported; ignored files are not", async () => {
    writeFileSync(join(root, "gone.md"), "bye");
    await start();
    rmSync(join(root, "gone.md"));
    writeFileSync(join(root, ".dotfile"), "no");
    writeFileSync(join(root, "edit.swp"), "no");
    await until("the deletion", () => reported().includes("gone.md"));
    await sleep(quietMs(0) + 100);
    expect(reported()).toEqual(["gone.md"]);
  });
});
