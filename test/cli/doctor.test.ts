import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeHome, runCli, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon();
  await d.cli(["kb", "create", "notes"]);
  await d.cli(["resource", "create", "--kb", "notes", "--title", "Hello", "--text", "Hello world"]);
});
afterAll(async () => {
  await d.stop();
});

interface Check {
  name: string;
  status: string;
  detail: string;
  fix?: string;
}

describe("kbox doctor", () => {
  it("reports a healthy daemon, disk, keyring fallback and readable LanceDB tables", async () => {
    const r = await d.cli(["doctor", "--json"], { env: { KBOX_CREDENTIAL_STORE: "file" } });
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
    expect(rep.ok).toBe(true);
    const by = Object.fromEntries(rep.checks.map((c) => [c.name, c]));
    expect(by.daemon.status).toBe("ok");
    expect(by.daemon.detail).toMatch(/^kboxd \S+ \(protocol \d+, pid \d+/);
    expect(by.disk.detail).toMatch(/free$/);
    expect(by.keyring).toMatchObject({ status: "warn" });
    expect(by.keyring.detail).toContain("credentials.json");
    expect(by.tables.status).toBe("ok");
    expect(by.tables.detail).toMatch(/\d+ LanceDB tables in 1 knowledge boxes/);
    expect(["ok", "warn", "skip"]).toContain(by.models.status);
    expect(by.sync).toBeDefined();
  });

  it("prints marks and fix hints on a TTY, TSV when piped", async () => {
    const tty = await d.cli(["doctor"], { tty: true, env: { KBOX_CREDENTIAL_STORE: "file" } });
    expect(tty.stdout).toMatch(/✓ daemon\s+kboxd/);
    expect(tty.stdout).toMatch(/! keyring .*\n\s+fix: /);
    expect(tty.stderr).toContain("no problems found");
    const piped = await d.cli(["doctor"], { env: { KBOX_CREDENTIAL_STORE: "file" } });
    expect(piped.stdout).toMatch(/^daemon\tok\tkboxd /m);
  });

  it("exits 1 with a fix when the credentials file is readable by others", async () => {
    const f = join(d.home, "credentials.json");
    writeFileSync(f, '{"profiles":{}}\n');
    chmodSync(f, 0o644);
    const r = await d.cli(["doctor"], { env: { KBOX_CREDENTIAL_STORE: "file" } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`credentials\tfail\t${f} has mode 644\tchmod 600 ${f}`);
    chmodSync(f, 0o600);
  });

  it("does not start a daemon: a stopped one is a warning and the daemon checks are skipped", async () => {
    const home = tempHome();
    try {
      const r = await runCli(["doctor", "--json"], { KBOX_HOME: home, KBOX_CREDENTIAL_STORE: "file" });
      const rep = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
      expect(r.code).toBe(0);
      expect(rep.checks.find((c) => c.name === "daemon")).toMatchObject({ status: "warn" });
      expect(rep.checks.find((c) => c.name === "tables")).toMatchObject({ status: "skip" });
      await runCli(["config", "set", "daemon.autostart", "false"], { KBOX_HOME: home });
      const off = await runCli(["doctor"], { KBOX_HOME: home, KBOX_CREDENTIAL_STORE: "file" });
      expect(off.code).toBe(1);
      expect(off.stdout).toMatch(/^daemon\tfail\tkboxd is not running/m);
      // With autostart off, other commands refuse instead of starting a daemon.
      const list = await runCli(["kb", "list"], { KBOX_HOME: home });
      expect(list.code).toBe(3);
    } finally {
      removeHome(home);
    }
  });
});
