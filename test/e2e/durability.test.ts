import { type ChildProcess, spawn as nodeSpawn } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as daemonApi from "../../src/api/daemon.js";
import * as kbs from "../../src/api/kbs.js";
import { kboxPaths } from "../../src/api/paths.js";
import * as resources from "../../src/api/resources.js";
import type { KboxClient } from "../../src/client/client.js";
import { removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";

const homes: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const h of homes) removeHome(h);
});

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
}

async function spawn(home: string): Promise<{ child: ChildProcess; client: KboxClient }> {
  const d = await spawnTestDaemon(home);
  children.push(d.child);
  return d;
}

describe("durability of a real kboxd process", () => {
  it("keeps every acknowledged resource across kill -9, and a stale pid and socket do not block the restart", async () => {
    const home = tempHome();
    homes.push(home);
    const paths = kboxPaths({ KBOX_HOME: home });
    const first = await spawn(home);
    const kbid = (await first.client.call(kbs.createKb, { body: { slug: "durable" } })).uuid;

    // Acknowledged writes: sequential and concurrent ones, with fields.
    const acked: { uuid: string; title: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const title = `seq ${i}`;
      const r = await first.client.call(resources.createResource, {
        params: { kbid },
        body: { title, slug: `s-${i}`, texts: { body: { body: `text ${i}` } } },
      });
      acked.push({ uuid: r.uuid, title });
    }
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        first.client
          .call(resources.createResource, { params: { kbid }, body: { title: `burst ${i}` } })
          .then((r) => ({ uuid: r.uuid, title: `burst ${i}` })),
      ),
    );
    acked.push(...burst);
    const patched = await first.client.call(resources.updateResource.byId, {
      params: { kbid, rid: acked[0].uuid },
      body: { title: "patched" },
    });
    acked[0].title = "patched";
    first.child.kill("SIGKILL");
    expect((await exited(first.child)).signal).toBe("SIGKILL");

    // The killed daemon left its pid file and socket behind.
    expect(existsSync(paths.pid)).toBe(true);
    expect(existsSync(paths.socket)).toBe(true);

    const second = await spawn(home);
    const list = await second.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
    expect(list.resources.map((r) => r.id).sort()).toEqual(acked.map((a) => a.uuid).sort());
    for (const a of acked) {
      const r = await second.client.call(resources.getResource.byId, { params: { kbid, rid: a.uuid } });
      expect(r.title).toBe(a.title);
    }
    const first0 = await second.client.call(resources.getResource.byId, {
      params: { kbid, rid: acked[0].uuid },
      query: { show: ["basic", "values"] },
    });
    expect(first0.last_seqid).toBe(patched.seqid);
    expect((first0.data as { texts: { body: { value: { body: string } } } }).texts.body.value.body).toBe("text 0");
    expect((await second.client.call(resources.getResource.bySlug, { params: { kbid, rslug: "s-9" } })).title).toBe("seq 9");
    // Seqids keep increasing after the restart.
    const after = await second.client.call(resources.createResource, { params: { kbid }, body: { title: "after" } });
    expect(after.seqid).toBeGreaterThan(patched.seqid);
    second.child.kill("SIGKILL");
    await exited(second.child);
  });

  it("SIGTERM drains in-flight requests and removes socket and pid; the socket is 0600 in a 0700 dir", async () => {
    const home = tempHome();
    homes.push(home);
    const paths = kboxPaths({ KBOX_HOME: home });
    const d = await spawn(home);
    expect(statSync(paths.runtime).mode & 0o777).toBe(0o700);
    expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
    expect(statSync(paths.pid).isFile()).toBe(true);
    const hello = await d.client.call(daemonApi.hello);
    expect(hello.pid).toBe(d.child.pid);

    const kbid = (await d.client.call(kbs.createKb, { body: { slug: "drain" } })).uuid;
    // Requests in flight when SIGTERM arrives either complete (201) or never reach the daemon.
    const inflight = Array.from({ length: 20 }, (_, i) =>
      d.client.call(resources.createResource, { params: { kbid }, body: { title: `t${i}` } }).then(
        (r) => ({ ok: true as const, uuid: r.uuid }),
        (e: Error) => ({ ok: false as const, error: e }),
      ),
    );
    await new Promise((r) => setTimeout(r, 5));
    d.child.kill("SIGTERM");
    const results = await Promise.all(inflight);
    const { code } = await exited(d.child);
    expect(code).toBe(0);
    expect(existsSync(paths.socket)).toBe(false);
    expect(existsSync(paths.pid)).toBe(false);
    for (const r of results) if (!r.ok) expect(r.error.constructor.name).toBe("UnreachableError");

    const again = await spawn(home);
    const list = await again.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
    const stored = new Set(list.resources.map((r) => r.id));
    for (const r of results) if (r.ok) expect(stored.has(r.uuid)).toBe(true);
    again.child.kill("SIGTERM");
    expect((await exited(again.child)).code).toBe(0);
  });

  it("is not blocked by a pid file naming a live process that is not kboxd", async () => {
    const home = tempHome();
    homes.push(home);
    const paths = kboxPaths({ KBOX_HOME: home });
    mkdirSync(paths.runtime, { recursive: true, mode: 0o700 });
    // Our own (test runner) pid: alive, but not a daemon — as after pid reuse.
    writeFileSync(paths.pid, `${process.pid}\n`);
    writeFileSync(paths.socket, "not a socket");
    const d = await spawn(home);
    expect((await d.client.call(daemonApi.hello)).pid).toBe(d.child.pid);
    d.child.kill("SIGTERM");
    expect((await exited(d.child)).code).toBe(0);
  });

  it("refuses to start a second daemon on the same home while the first runs", async () => {
    const home = tempHome();
    homes.push(home);
    const d = await spawn(home);
    const second = nodeSpawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "../../bin/kboxd.ts")], {
      env: { ...process.env, KBOX_HOME: home },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(second);
    let stderr = "";
    second.stderr?.on("data", (b) => {
      stderr += b;
    });
    expect((await exited(second)).code).toBe(1);
    expect(stderr).toMatch(new RegExp(`already running \\(pid ${d.child.pid}\\)`));
    expect((await d.client.call(daemonApi.hello)).pid).toBe(d.child.pid);
    d.child.kill("SIGTERM");
    await exited(d.child);
  });
});
