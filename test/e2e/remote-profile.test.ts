import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeHome, runCli, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";

// A second daemon on TCP stands in for a remote zone: it serves the same wire and needs an API key.
let zone: TestDaemon;
let kbid: string;
let key: string;
let readerKey: string;
let home: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], o: { tty?: boolean; stdin?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runCli(args, { ...env, ...o.env }, o);

beforeAll(async () => {
  zone = await startTestDaemon({ listen: "127.0.0.1:0" });
  kbid = JSON.parse((await zone.cli(["kb", "create", "remote-notes", "--json"])).stdout).uuid;
  const mkKey = async (role: string) => {
    const sa = JSON.parse(
      (await zone.cli(["sa", "create", "--title", role, "--role", role, "--kb", "remote-notes", "--json"])).stdout,
    );
    return (await zone.cli(["sa", "key", "create", sa.id, "--kb", "remote-notes", "--expires", "1d"])).stdout.trim();
  };
  key = await mkKey("SCONTRIBUTOR");
  readerKey = await mkKey("SMEMBER");
  // The client's home has no daemon: any local start would show up as a socket here.
  home = tempHome();
  env = { KBOX_HOME: home, NO_COLOR: "1", KBOX_CREDENTIAL_STORE: "file", KBOX_DAEMON_BIN: "/nonexistent/kboxd.js" };
}, 60_000);
afterAll(async () => {
  await zone.stop();
  removeHome(home);
});

describe("remote profiles against a zone over TCP", () => {
  it("refuses a bad key at login with exit 4 and stores nothing", async () => {
    const r = await cli(["auth", "login", "--zone", zone.url!, "--kb", kbid, "--api-key", "-"], { stdin: "not-a-key\n" });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("the zone refused the API key (401)");
    expect(JSON.parse((await cli(["profile", "list", "--json"])).stdout).profiles).toHaveLength(1);
  });

  it("logs in with a key from stdin (URL with /api/v1) and runs kb and resource commands unchanged", async () => {
    const login = await cli(
      ["auth", "login", "--profile", "zone", "--zone", `${zone.url}/api/v1`, "--kb", kbid, "--api-key", "-"],
      { stdin: `${key}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain("(knowledge box remote-notes) as profile zone, now active");

    const created = await cli(["resource", "create", "--title", "From afar", "--text", "Remote text", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const rid = JSON.parse(created.stdout).uuid;
    const list = await cli(["resource", "list", "--json"]);
    expect(JSON.parse(list.stdout).resources.map((r: { id: string }) => r.id)).toContain(rid);
    const show = await cli(["kb", "show", "--json"]);
    expect(JSON.parse(show.stdout).slug).toBe("remote-notes");
    // The resource is in the zone's daemon, not in a local one.
    expect((await zone.cli(["resource", "list", "--kb", "remote-notes"])).stdout).toContain("From afar");

    const st = await cli(["auth", "status", "--check"]);
    expect(st.code).toBe(0);
    expect(st.stdout).toMatch(/^\*\tzone\thttp:\/\/127\.0\.0\.1:\d+\tfile\t.*credentials\.json\tok$/m);
  });

  it("answers exit 4 for a key the zone stops accepting, and for a role that is too small", async () => {
    const bad = await cli(["resource", "list"], { env: { KBOX_API_KEY: "wrong" } });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain("authentication failed");
    expect(bad.stderr).toContain("hint:");
    const reader = await cli(["resource", "create", "--title", "x", "--text", "y"], { env: { KBOX_API_KEY: readerKey } });
    expect(reader.code).toBe(4);
    expect(reader.stderr).toContain("forbidden");
    const check = await cli(["auth", "status", "--check", "--json"], { env: { KBOX_API_KEY: "wrong" } });
    expect(check.code).toBe(4);
    expect(JSON.parse(check.stdout).profiles.find((p: { active: boolean }) => p.active).check).toBe("refused (401)");
  });

  it("works ad hoc from KBOX_URL, KBOX_API_KEY and KBOX_KB without a profile", async () => {
    const adhoc = {
      KBOX_HOME: tempHome(),
      NO_COLOR: "1",
      KBOX_URL: zone.url!,
      KBOX_API_KEY: key,
      KBOX_KB: kbid,
      KBOX_DAEMON_BIN: "/nonexistent",
    };
    try {
      const r = await runCli(["resource", "list"], adhoc);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("From afar");
      // An explicit profile wins over KBOX_URL.
      const local = await runCli(["profile", "show", "--json", "--profile", "local"], adhoc);
      expect(JSON.parse(local.stdout).kind).toBe("local");
    } finally {
      removeHome(adhoc.KBOX_HOME);
    }
  });

  it("switches back to the local profile and forgets the key on logout", async () => {
    expect((await cli(["auth", "logout", "--profile", "zone"])).code).toBe(0);
    const r = await cli(["resource", "list"]);
    expect(r.code).toBe(4);
    expect((await cli(["profile", "use", "local"])).code).toBe(0);
  });
});
