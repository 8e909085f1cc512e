import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kboxPaths } from "../../src/api/paths.js";
import { PROTOCOL_VERSION } from "../../src/api/version.js";
import { KboxClient } from "../../src/client/client.js";
import { daemonCommand, daemonEnv, hello, jemallocPath, waitGone } from "../../src/client/connect.js";
import { removeHome, runCli, tempHome } from "../helpers/daemon.js";

const homes: string[] = [];
const pids = new Set<number>();

/** A fresh KBOX_HOME with the env the CLI sees; daemons it starts are recorded for cleanup. */
function fresh() {
  const home = tempHome();
  homes.push(home);
  const env = { KBOX_HOME: home, NO_COLOR: "1" } as NodeJS.ProcessEnv;
  const paths = kboxPaths(env);
  const client = new KboxClient({ kind: "unix", socket: paths.socket });
  const cli = (args: string[], o: { tty?: boolean } = {}) => runCli(args, env, o);
  return { home, env, paths, client, cli };
}

afterAll(async () => {
  // Whatever a failed test left running: stop it by its pid.
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  for (const h of homes) removeHome(h);
});

async function track(client: KboxClient): Promise<number> {
  const h = await hello(client);
  if (!h) throw new Error("no daemon answers");
  pids.add(h.pid);
  return h.pid;
}

describe("daemon lifecycle through the CLI", () => {
  it("status exits 3 when the daemon is down and never starts one; stop never starts one either", async () => {
    const t = fresh();
    const status = await t.cli(["daemon", "status"]);
    expect(status.code).toBe(3);
    expect(status.stdout).toBe("");
    expect(status.stderr).toMatch(/not running/);
    const json = await t.cli(["daemon", "status", "--json"]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({ running: false, socket: t.paths.socket });

    const stop = await t.cli(["daemon", "stop"]);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe("");
    expect(stop.stderr).toMatch(/not running/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await hello(t.client)).toBeUndefined();
    expect(existsSync(t.paths.socket)).toBe(false);
    expect(existsSync(t.paths.pid)).toBe(false);
  });

  it("auto-starts a detached daemon for `kb list`, reports it in status and logs, and stops it", async () => {
    const t = fresh();
    const list = await t.cli(["kb", "list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe("");
    expect(list.stderr).toMatch(/starting kboxd/);
    const pid = await track(t.client);
    expect(pid).not.toBe(process.pid);
    expect(readFileSync(t.paths.pid, "utf8").trim()).toBe(String(pid));

    const second = await t.cli(["kb", "list"]);
    expect(second.stderr).not.toMatch(/starting/);
    expect(await track(t.client)).toBe(pid);

    const status = await t.cli(["daemon", "status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^pid\\t${pid}$`, "m"));
    expect(status.stdout).toMatch(/^status\trunning$/m);
    const sj = JSON.parse((await t.cli(["daemon", "status", "--json"])).stdout);
    expect(sj).toMatchObject({ running: true, name: "kboxd", pid, protocol: 1 });
    // Started by kbox, the daemon runs on jemalloc wherever the system has it (.ci/apt-packages installs it).
    expect(sj.allocator).toBe(jemallocPath() ? "jemalloc" : "system");
    expect(sj.extract_workers).toEqual({ workers: 0, rss_bytes: 0 });
    // With a young generation of 32 MB semi-spaces (daemonNodeFlags): on its command line.
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toContain("--max-semi-space-size=32");

    const logs = await t.cli(["daemon", "logs", "-n", "5"]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(new RegExp(`pid ${pid} listening on unix:`));
    expect(logs.stdout.trim().split("\n").length).toBeLessThanOrEqual(5);

    const stop = await t.cli(["daemon", "stop"]);
    expect(stop.code).toBe(0);
    expect(stop.stderr).toMatch(new RegExp(`stopped \\(pid ${pid}\\)`));
    expect(await hello(t.client)).toBeUndefined();
    expect(existsSync(t.paths.socket)).toBe(false);
    expect(existsSync(t.paths.pid)).toBe(false);
    pids.delete(pid);
    expect((await t.cli(["daemon", "logs"])).stdout).toMatch(/stopped/);
  });

  it("preloads jemalloc for the daemon unless told not to, keeping another preload; else tunes glibc", () => {
    const lib = jemallocPath();
    // Without jemalloc (none on the system, or KBOX_ALLOCATOR=system): glibc keeps two arenas, unless
    // the user set glibc's malloc up.
    const glibc = lib ? { KBOX_ALLOCATOR: "system" } : {};
    expect(daemonEnv({ A: "1", ...glibc })).toEqual({ A: "1", ...glibc, MALLOC_ARENA_MAX: "2" });
    expect(daemonEnv({ ...glibc, MALLOC_ARENA_MAX: "8" }).MALLOC_ARENA_MAX).toBe("8");
    expect(daemonEnv({ ...glibc, GLIBC_TUNABLES: "glibc.malloc.arena_max=4" }).MALLOC_ARENA_MAX).toBeUndefined();
    if (!lib) return;
    // With quick return of freed memory to the system, unless the user configured jemalloc.
    expect(daemonEnv({ A: "1" })).toEqual({
      A: "1",
      LD_PRELOAD: lib,
      MALLOC_CONF: expect.stringContaining("dirty_decay_ms:1000"),
    });
    expect(daemonEnv({ MALLOC_CONF: "narenas:1" }).MALLOC_CONF).toBe("narenas:1");
    expect(daemonEnv({ LD_PRELOAD: "/x.so" }).LD_PRELOAD).toBe(`${lib}:/x.so`);
    expect(daemonEnv({ KBOX_ALLOCATOR: "system" }).LD_PRELOAD).toBeUndefined();
  });

  it("starts node with the daemon's young generation unless NODE_OPTIONS sets its own", () => {
    expect(daemonCommand({}).args).toContain("--max-semi-space-size=32");
    expect(daemonCommand({ KBOX_DAEMON_BIN: "/x/kboxd.js" }).args).toEqual(["--max-semi-space-size=32", "/x/kboxd.js"]);
    expect(daemonCommand({ NODE_OPTIONS: "--max-semi-space-size=8" }).args.join(" ")).not.toMatch(/semi-space/);
  });

  it("start, start again, restart and stop with the daemon verbs", async () => {
    const t = fresh();
    const start = await t.cli(["daemon", "start"]);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toMatch(/started \(pid \d+\)/);
    const pid = await track(t.client);
    const again = await t.cli(["daemon", "start", "--json"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/already running/);
    expect(JSON.parse(again.stdout)).toMatchObject({ name: "kboxd", pid });

    const restart = await t.cli(["daemon", "restart"]);
    expect(restart.code).toBe(0);
    const pid2 = await track(t.client);
    expect(pid2).not.toBe(pid);
    pids.delete(pid);
    expect((await t.cli(["daemon", "stop"])).code).toBe(0);
    pids.delete(pid2);
    expect(await hello(t.client)).toBeUndefined();
  });

  it("restarts a daemon that speaks another protocol (version handshake)", async () => {
    const t = fresh();
    mkdirSync(t.paths.runtime, { recursive: true, mode: 0o700 });
    // The pid the fake reports: a process that has already exited, as the real one would once stopped.
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    let shutdowns = 0;
    const fake: Server = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/api/v1/kbox/hello") {
        res.end(
          JSON.stringify({
            name: "kboxd",
            version: "0.0.1",
            protocol: 0,
            pid: deadPid,
            started: new Date().toISOString(),
            data_dir: t.paths.data,
            listen: [],
          }),
        );
      } else if (req.url === "/api/v1/kbox/shutdown" && req.method === "POST") {
        shutdowns++;
        res.statusCode = 202;
        res.end(JSON.stringify({ stopping: true }));
        setImmediate(() => fake.close());
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ detail: "Not Found" }));
      }
    });
    await new Promise<void>((r) => fake.listen(t.paths.socket, r));
    chmodSync(t.paths.socket, 0o600);
    expect((await hello(t.client))?.protocol).toBe(0);

    const list = await t.cli(["kb", "list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ kbs: [] });
    expect(list.stderr).toMatch(/restarting kboxd 0\.0\.1 \(protocol 0/);
    expect(shutdowns).toBe(1);
    const h = await hello(t.client);
    expect(h?.protocol).toBe(PROTOCOL_VERSION);
    await track(t.client);
    expect((await t.cli(["daemon", "stop"])).code).toBe(0);
    pids.delete(h!.pid);
  });

  it("fails fast with exit 3 and a hint when the daemon cannot start", async () => {
    const t = fresh();
    const bin = join(t.home, "broken-kboxd.mjs");
    writeFileSync(bin, "process.exit(7);\n");
    const r = await runCli(["kb", "list"], { ...t.env, KBOX_DAEMON_BIN: bin });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/kboxd exited with code 7/);
    expect(r.stderr).toMatch(/hint: see .*kboxd\.log/);
  });

  it("`daemon logs` without a log says so with a hint", async () => {
    const t = fresh();
    const r = await t.cli(["daemon", "logs"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/no log yet/);
    expect(r.stderr).toMatch(/hint: start the daemon/);
    expect(await waitGone(t.client, 100)).toBe(true);
  });
});
