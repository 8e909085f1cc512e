/**
 * kill -9 of the daemon while `kbox add <folder>` hands it a folder: every file it acknowledged (an
 * item PENDING or DUPLICATE in the stream) survives, and adding the folder again after a restart
 * makes each of the files exactly one resource, PROCESSED.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as af from "../../src/api/add-folder.js";
import * as kbs from "../../src/api/kbs.js";
import * as processing from "../../src/api/processing.js";
import { removeHome, runCli, spawnTestDaemon, tempHome } from "../helpers/daemon.js";
import { exited, originPaths, sleep } from "../helpers/kill.js";

const N = 2000;
const homes: string[] = [];
const roots: string[] = [];

afterAll(() => {
  for (const h of homes) removeHome(h);
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const rel = (i: number) => `d${Math.floor(i / 100)}/note-${i}.md`;

describe("kill -9 during kbox add <folder>", () => {
  it("keeps every acknowledged file; adding again makes each file one PROCESSED resource", async () => {
    const home = tempHome();
    homes.push(home);
    const base = mkdtempSync(join(tmpdir(), "kbox-add-kill-"));
    roots.push(base);
    const root = join(base, "notes");
    for (let i = 0; i < N; i++) {
      if (i % 100 === 0) mkdirSync(join(root, rel(i), ".."), { recursive: true });
      writeFileSync(join(root, rel(i)), `# Note ${i}\n\nThe harbor lantern zq${i}marker glows.\n`);
    }
    const first = await spawnTestDaemon(home);
    const kbid = (await first.client.call(kbs.createKb, { body: { slug: "killed" } })).uuid;
    const files = Array.from({ length: N }, (_, i) => rel(i));
    // Read the stream as kbox add does, and kill the daemon once a fifth of the files are acknowledged.
    const acked = new Map<string, string>();
    let cut: unknown;
    try {
      for await (const raw of first.client.stream(af.addFolder, { params: { kbid }, body: { root, files } })) {
        const item = raw as af.AddedFile;
        if (item.resource) acked.set(item.path, item.resource);
        if (acked.size === N / 5) first.child.kill("SIGKILL");
      }
    } catch (e) {
      cut = e;
    }
    await exited(first.child);
    expect(cut).toBeDefined();
    expect(acked.size).toBeGreaterThanOrEqual(N / 5);
    expect(acked.size).toBeLessThan(N);

    const second = await spawnTestDaemon(home);
    try {
      // Nothing acknowledged was lost.
      const after = await originPaths(second.client, kbid);
      for (const [path, rid] of acked) expect(after.get(rid), path).toBe(`/notes/${path}`);
      // The CLI adds the folder again: acknowledged files are DUPLICATEs, the rest new.
      const r = await runCli(["add", root, "--kb", "killed", "--wait", "--json"], { KBOX_HOME: home, NO_COLOR: "1" });
      expect(r.code, r.stderr).toBe(0);
      const results = JSON.parse(r.stdout).results as { source: string; resource: string; status: string }[];
      expect(results).toHaveLength(N);
      for (const x of results) {
        const path = x.source.slice(root.length + 1);
        if (acked.has(path)) expect([x.status, x.resource]).toEqual(["DUPLICATE", acked.get(path)]);
        else expect([path, x.status]).toEqual([path, expect.stringMatching(/^(PROCESSED|DUPLICATE)$/)]);
      }
      let totals: Record<string, number> = {};
      for (const until = Date.now() + 300_000; Date.now() < until; await sleep(300)) {
        totals = (await second.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1 } })).totals;
        if (!totals.PENDING) break;
      }
      expect(totals).toEqual({ PROCESSED: N });
      const paths = await originPaths(second.client, kbid);
      expect([...paths.values()].sort()).toEqual(files.map((f) => `/notes/${f}`).sort());
    } finally {
      second.child.kill("SIGKILL");
      await exited(second.child);
    }
  }, 600_000);
});
