import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";

// `kbox watch --follow` and `kbox sync logs --follow` as a person runs them: real CLI processes that
// stay up while files change, read line by line, stopped with SIGINT.
let d: TestDaemon;
let root: string;
/** The sync configuration `kbox watch` made. */
let config: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  root = join(d.home, "notes");
  mkdirSync(root);
  writeFileSync(join(root, "first.md"), "# First\n\nThe first note.\n");
  expect((await d.cli(["kb", "create", "notes"])).code).toBe(0);
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await d?.stop();
});

/** Start `kbox <args>` as its own process; `until` waits for stdout to match. */
function kbox(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "../../bin/kbox.ts"), ...args], {
    env: { ...process.env, ...d.env, CI: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (b) => {
    out += b;
  });
  child.stderr?.on("data", (b) => {
    err += b;
  });
  return {
    child,
    out: () => out,
    async until(re: RegExp, ms = 30_000): Promise<string> {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (re.test(out)) return out;
        if (child.exitCode !== null) throw new Error(`kbox exited ${child.exitCode} before ${re}:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${re}; stdout:\n${out}\nstderr:\n${err}`);
    },
  };
}

describe("following syncs live", () => {
  it("kbox watch --follow prints the first sync, then every live change (more than five jobs)", async () => {
    const w = kbox(["watch", root, "--kb", "notes", "--follow"]);
    await w.until(/added first\.md/);
    await w.until(/sync finished/);
    // Seven live changes, one job each: the follower keeps up with every new job.
    for (let i = 1; i <= 7; i++) {
      writeFileSync(join(root, `live-${i}.md`), `# Live ${i}\n\nNote number ${i}.\n`);
      await w.until(new RegExp(`added live-${i}\\.md`));
    }
    renameSync(join(root, "live-1.md"), join(root, "moved.md"));
    await w.until(/moved live-1\.md -> moved\.md/);
    expect(w.child.exitCode).toBeNull(); // still following
    w.child.kill("SIGINT");
    const list = JSON.parse((await d.cli(["sync", "list", "--kb", "notes", "--json"])).stdout);
    config = (Array.isArray(list) ? list : list.items)[0].id;
    const jobs = await d.cli(["sync", "jobs", config, "--kb", "notes", "--limit", "1"], { tty: true });
    expect(jobs.stdout.split("\n")[0]).toMatch(/\bMOVED\b/);
    expect(jobs.stdout.split("\n")[1]).toMatch(/watch/);
  }, 120_000);

  it("kbox sync logs --follow keeps printing after the latest job, as new jobs run", async () => {
    const f = kbox(["sync", "logs", config, "--kb", "notes", "--follow"]);
    await f.until(/moved live-1\.md -> moved\.md/); // the latest job, whole
    writeFileSync(join(root, "after.md"), "# After\n\nWritten while following.\n");
    await f.until(/added after\.md/);
    await d.cli(["sync", "run", config, "--kb", "notes", "--full"]);
    await f.until(/api sync started \(full\)[\s\S]*sync finished/);
    expect(f.child.exitCode).toBeNull();
    f.child.kill("SIGINT");
    // With --job the follow ends with the job.
    const done = await d.cli(["sync", "logs", config, "--kb", "notes", "--follow", "--job", (await latestJob()).id]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/sync finished/);
  }, 120_000);
});

async function latestJob() {
  const r = await d.cli(["sync", "jobs", config, "--kb", "notes", "--limit", "1", "--json"]);
  return JSON.parse(r.stdout).items[0] as { id: string };
}
