import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, runCli, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";
import { startRemoteZone } from "../helpers/zone.js";

// `kbox agent …` end to end against the local daemon (no generative model: the extractive answerer).
let d: TestDaemon;
let dir: string;

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  dir = mkdtempSync(join(tmpdir(), "kbox-agent-cli-"));
  await seedKb(d, "crew", [{ slug: "crew", title: "Crew", body: "Captain Rosa Vale commands the research ship Albatross." }]);
  await seedKb(d, "ports", [
    { slug: "ports", title: "Ports", body: "The research ship Albatross is moored in Halifax during winter." },
  ]);
});
afterAll(async () => {
  await d?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(args: string[]) {
  const r = await d.cli(args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe("kbox agent", () => {
  it("creates an agent with two drivers and a session, and asks with streamed steps", async () => {
    await ok(["agent", "create", "mate"]);
    expect((await ok(["agent", "list"])).stdout).toMatch(/^mate\t/m);
    await ok(["agent", "driver", "add", "crew", "--agent", "mate", "--kb", "crew"]);
    await ok(["agent", "driver", "add", "ports", "--agent", "mate", "--kb", "ports"]);
    expect((await ok(["agent", "driver", "list", "--agent", "mate"])).stdout).toMatch(/crew\t.*\tlocal\t/);
    await ok(["agent", "session", "create", "voyage", "--agent", "mate"]);
    const r = await ok([
      "agent",
      "ask",
      "Who commands the Albatross and where is it moored in winter?",
      "--agent",
      "mate",
      "--session",
      "voyage",
    ]);
    expect(r.stderr).toContain("· plan:");
    expect(r.stderr).toMatch(/· retrieve: crew: \d+ paragraphs/);
    expect(r.stderr).toMatch(/· retrieve: ports: \d+ paragraphs/);
    expect(r.stderr).toMatch(/extractive answerer/);
    expect(r.stdout).toMatch(/Rosa Vale|Halifax/);
    const show = JSON.parse((await ok(["agent", "session", "show", "voyage", "--agent", "mate"])).stdout);
    expect(show.data.conversations.history.value.messages).toHaveLength(2);
    // Unknown agent: a failure that says so.
    const missing = await d.cli(["agent", "ask", "x", "--agent", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no agent nope");
    // Usage errors: exit 2.
    expect((await d.cli(["agent", "ask", "x"])).code).toBe(2);
    expect((await d.cli(["agent", "export", "mate", "-o", join(dir, "x"), "--passphrase", "short"])).code).toBe(2);
    expect((await d.cli(["agent", "workflow", "module", "add", "nonsense", "{}", "--agent", "mate"])).code).toBe(2);
  });

  it("sets rules, prompts and workflows; exports and imports them into another agent", async () => {
    await ok(["agent", "rule", "set", "Answer briefly.", "--agent", "mate"]);
    expect((await ok(["agent", "rule", "list", "--agent", "mate"])).stdout).toBe("Answer briefly.\n");
    await ok(["agent", "prompt", "add", "terse", "--text", "Five words.", "--id", "terse", "--agent", "mate"]);
    await ok(["agent", "workflow", "add", "brief", "--agent", "mate"]);
    await ok([
      "agent",
      "workflow",
      "module",
      "add",
      "generation",
      '{"module":"generate","prompt_id":"terse"}',
      "--agent",
      "mate",
    ]);
    const file = join(dir, "mate.kboxagent");
    await ok(["agent", "export", "mate", "-o", file, "--passphrase", "sixteen chars at least"]);
    await ok(["agent", "create", "mate2"]);
    const wrong = await d.cli(["agent", "import", "mate2", file, "--passphrase", "not the passphrase!"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/passphrase/);
    await ok(["agent", "import", "mate2", file, "--passphrase", "sixteen chars at least"]);
    const a = JSON.parse((await ok(["agent", "show", "mate"])).stdout);
    const b = JSON.parse((await ok(["agent", "show", "mate2"])).stdout);
    for (const k of ["workflows", "rules", "drivers", "prompts"]) expect(b[k]).toEqual(a[k]);
    expect(b.rules).toEqual(["Answer briefly."]);
    await ok(["agent", "delete", "mate2", "--yes"]);
    expect((await ok(["agent", "list"])).stdout).not.toMatch(/mate2/);
  });

  it("works the same on a remote profile (a zone over TCP, an account key)", async () => {
    const zone = await startRemoteZone("remote-a");
    const home = tempHome();
    try {
      await seedKb(zone.d, "fleet", [{ slug: "fleet", title: "Fleet", body: "The tugboat Marlin tows barges along the Douro." }]);
      const env = { KBOX_HOME: home, KBOX_CREDENTIAL_STORE: "file", NO_COLOR: "1" };
      const cli = (args: string[], stdin?: string) => runCli(args, env, { stdin });
      const login = await cli(
        ["auth", "login", "--kind", "account-key", "--zone", zone.url, "--profile", "rz", "--api-key", "-"],
        zone.key,
      );
      expect(login.code, login.stderr).toBe(0);
      for (const args of [
        ["agent", "create", "far"],
        ["agent", "driver", "add", "fleet", "--agent", "far", "--kb", "fleet"],
      ]) {
        const r = await cli(args);
        expect(r.code, r.stderr).toBe(0);
      }
      const r = await cli(["agent", "ask", "What does the Marlin tow?", "--agent", "far"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("barges");
      expect(r.stderr).toMatch(/· retrieve: fleet: \d+ paragraphs/);
    } finally {
      await zone.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
