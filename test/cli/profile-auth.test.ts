import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeHome, runCli, tempHome } from "../helpers/daemon.js";

let home: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], o: { tty?: boolean; stdin?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runCli(args, { ...env, ...o.env }, o);

beforeAll(() => {
  home = tempHome();
  // The daemon must never be started by these commands: autostart off makes a stray start an error.
  env = { KBOX_HOME: home, NO_COLOR: "1", KBOX_CREDENTIAL_STORE: "file" };
});
afterAll(() => removeHome(home));

describe("kbox profile", () => {
  it("lists the local profile by default, as a table on a TTY, TSV piped and JSON", async () => {
    const tty = await cli(["profile", "list"], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/^\s+NAME\s+KIND\s+URL/m);
    expect(tty.stdout).toMatch(/\*\s+local\s+local\s+\(local daemon\)/);
    const piped = await cli(["profile", "list"]);
    expect(piped.stdout).toBe("*\tlocal\tlocal\t(local daemon)\t\t\n");
    const json = JSON.parse((await cli(["profile", "ls", "--json"])).stdout);
    expect(json).toEqual({
      current: "local",
      profiles: [{ name: "local", current: true, kind: "local", url: null, kb: null, secret: null }],
    });
  });

  it("adds, shows, uses and removes profiles, and validates names and URLs", async () => {
    const add = await cli(["profile", "add", "work", "--url", "https://zone.example/api/v1/", "--kb", "k1"]);
    expect(add.code).toBe(0);
    expect(add.stderr).toContain("added profile work (remote https://zone.example)");
    expect(add.stderr).toContain("kbox auth login --profile work");
    expect((await cli(["profile", "add", "work", "--url", "https://x.example"])).code).toBe(2);
    expect((await cli(["profile", "add", "bad name"])).code).toBe(2);
    const badUrl = await cli(["profile", "add", "w2", "--url", "ftp://x"]);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("unsupported URL scheme");

    expect((await cli(["profile", "use", "nope"])).code).toBe(2);
    const use = await cli(["profile", "use", "work"]);
    expect(use.stderr).toContain("now using profile work");
    const show = await cli(["profile", "show"]);
    expect(show.stdout).toContain("name\twork\n");
    expect(show.stdout).toContain("url\thttps://zone.example\n");
    // KBOX_PROFILE and --profile override the active profile.
    expect(JSON.parse((await cli(["profile", "show", "--json"], { env: { KBOX_PROFILE: "local" } })).stdout).name).toBe("local");
    expect(JSON.parse((await cli(["profile", "show", "--json", "--profile", "local"])).stdout).kind).toBe("local");

    const refuse = await cli(["profile", "remove", "work"]);
    expect(refuse.code).toBe(2);
    expect(refuse.stderr).toContain("without --yes");
    expect((await cli(["profile", "remove", "local", "--yes"])).code).toBe(2);
    expect((await cli(["profile", "rm", "work", "--yes"])).code).toBe(0);
    expect(JSON.parse((await cli(["profile", "list", "--json"])).stdout).current).toBe("local");
  });
});

describe("kbox auth", () => {
  it("stores a key from stdin in a 0600 file when told to, reports it, and forgets it on logout", async () => {
    const login = await cli(
      ["auth", "login", "--zone", "http://127.0.0.1:9/api/v1", "--kb", "kb1", "--api-key", "-", "--no-verify"],
      {
        stdin: "secret-key-1\n",
      },
    );
    expect(login.code).toBe(0);
    expect(login.stdout).toBe("");
    expect(login.stderr).toContain("as profile 127.0.0.1-9, now active");
    const file = join(home, "credentials.json");
    expect(login.stderr).toContain(`key stored in ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).profiles["127.0.0.1-9"].api_key).toBe("secret-key-1");
    // The key never lands in config.json.
    expect(readFileSync(join(home, "config.json"), "utf8")).not.toContain("secret-key-1");

    const st = JSON.parse((await cli(["auth", "status", "--json"])).stdout);
    const row = st.profiles.find((p: { profile: string }) => p.profile === "127.0.0.1-9");
    expect(row).toMatchObject({
      active: true,
      kind: "remote",
      url: "http://127.0.0.1:9",
      kb: "kb1",
      secret: "file",
      location: file,
    });
    expect(st.keyring.available).toBe(false);
    const piped = await cli(["auth", "status"]);
    expect(piped.stdout).toContain(`*\t127.0.0.1-9\thttp://127.0.0.1:9\tfile\t${file}\n`);
    expect(piped.stderr).toContain("keyring: unavailable");
    const viaEnv = JSON.parse((await cli(["auth", "status", "--json"], { env: { KBOX_API_KEY: "k" } })).stdout);
    expect(viaEnv.profiles.find((p: { active: boolean }) => p.active)).toMatchObject({ secret: "env", location: "KBOX_API_KEY" });

    const out = await cli(["auth", "logout"]);
    expect(out.stderr).toContain("removed the API key of profile 127.0.0.1-9");
    expect(JSON.parse(readFileSync(file, "utf8")).profiles).toEqual({});
    expect((await cli(["auth", "logout", "--profile", "local"])).code).toBe(2);
    expect((await cli(["profile", "use", "local"])).code).toBe(0);
  });

  it("refuses missing or empty keys and local profile names", async () => {
    expect((await cli(["auth", "login", "--zone", "http://127.0.0.1:9", "--kb", "k", "--no-verify"])).code).toBe(2);
    const empty = await cli(["auth", "login", "--zone", "http://127.0.0.1:9", "--kb", "k", "--api-key", "-", "--no-verify"], {
      stdin: "  \n",
    });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("the API key is empty");
    expect(
      (
        await cli([
          "auth",
          "login",
          "--profile",
          "local",
          "--zone",
          "http://x.example",
          "--kb",
          "k",
          "--api-key",
          "a",
          "--no-verify",
        ])
      ).code,
    ).toBe(2);
    expect((await cli(["auth", "login", "--kb", "k", "--api-key", "a", "--no-verify"])).code).toBe(2);
  });

  it("tries the OS keyring first in auto mode and records where the key went", async () => {
    const h = tempHome();
    try {
      const e = { KBOX_HOME: h, NO_COLOR: "1" };
      const r = await runCli(
        [
          "auth",
          "login",
          "--profile",
          "z",
          "--zone",
          "http://127.0.0.1:9",
          "--kb",
          "k",
          "--api-key",
          "-",
          "--no-verify",
          "--json",
        ],
        e,
        {
          stdin: "key-auto",
        },
      );
      expect(r.code).toBe(0);
      const res = JSON.parse(r.stdout);
      const st = JSON.parse((await runCli(["auth", "status", "--json"], e)).stdout);
      // Here (no Secret Service) the keyring probe fails fast and the key goes to the file; where a
      // keyring answers, the key is there and not in the file. Either way status agrees with login.
      expect(res.secret).toBe(st.keyring.available ? "keyring" : "file");
      expect(existsSync(join(h, "credentials.json"))).toBe(res.secret === "file");
      expect(st.profiles.find((p: { profile: string }) => p.profile === "z").secret).toBe(res.secret);
      const { loadSecret } = await import("../../src/cli/credentials.js");
      const { Context } = await import("../../src/cli/context.js");
      const { bufferIO } = await import("../../src/cli/io.js");
      expect(await loadSecret(new Context(bufferIO({ env: e }).io), "z", res.secret)).toBe("key-auto");
      expect((await runCli(["profile", "remove", "z", "--yes"], e)).code).toBe(0);
    } finally {
      removeHome(h);
    }
  });
});

describe("kbox config", () => {
  it("gets, sets, lists and unsets known settings, and refuses unknown keys and bad values", async () => {
    expect((await cli(["config", "get", "progress"])).stdout).toBe("auto\n");
    expect((await cli(["config", "set", "progress", "never"])).code).toBe(0);
    expect((await cli(["config", "get", "progress"])).stdout).toBe("never\n");
    expect(JSON.parse((await cli(["config", "get", "progress", "--json"])).stdout)).toEqual({
      key: "progress",
      value: "never",
      default: false,
    });
    expect((await cli(["config", "list"])).stdout).toBe("progress\tnever\n");
    const all = await cli(["config", "list", "--all"], { tty: true });
    expect(all.stdout).toContain("credentials.store = auto (default)");
    const bad = await cli(["config", "set", "progress", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("must be one of auto, never");
    const typo = await cli(["config", "set", "progres", "never"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean progress?");
    expect((await cli(["config", "unset", "progress"])).code).toBe(0);
    expect((await cli(["config", "get", "progress"])).stdout).toBe("auto\n");
  });
});

describe("command line behaviour", () => {
  it("suggests a command for a typo and exits 2", async () => {
    const r = await cli(["profil", "list"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown command 'profil'");
    expect(r.stderr).toContain("Did you mean profile?");
    const sub = await cli(["auth", "stauts"]);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("Did you mean status?");
  });

  it("prints help with examples on stdout and the version", async () => {
    const h = await cli(["auth", "login", "--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("Examples:");
    expect((await cli(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("lists profiles and never starts a daemon for completion candidates", async () => {
    await cli(["profile", "add", "p2"]);
    expect((await cli(["__complete", "profiles"])).stdout.split("\n")).toEqual(["local", "127.0.0.1-9", "p2", ""]);
    const kbs = await cli(["__complete", "kbs"]);
    expect(kbs).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(join(home, "run", "kboxd.sock"))).toBe(false);
  });
});
