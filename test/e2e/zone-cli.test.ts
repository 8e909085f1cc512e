import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

// The same `kbox` commands drive the local daemon (socket) and a remote zone (a second kboxd on TCP).
type Cli = (args: string[], stdin?: string) => Promise<{ code: number; stdout: string; stderr: string }>;

let local: TestDaemon;
let remote: RemoteZone;
let clientHome: string;

beforeAll(async () => {
  [local, remote] = await Promise.all([startTestDaemon({ env: { KBOX_MODELS_AUTOPULL: "0" } }), startRemoteZone("remote-cli")]);
  clientHome = tempHome("kbox-c-");
});
afterAll(async () => {
  await Promise.all([local.stop(), remote.stop()]);
  rmSync(clientHome, { recursive: true, force: true });
});

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

/** Every zone operation through the CLI; `cli` is bound to a target, `account` its account flag. */
async function drive(cli: Cli, where: string): Promise<void> {
  const account = json(await cli(["account", "show", "--json"]));
  expect(account.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(account.slug).toBe("local");
  const acc = ["--account", account.slug];

  const created = await cli(["kb", "create", "team", "--title", `Team ${where}`, ...acc]);
  expect(created.code, created.stderr).toBe(0);
  const kbid = created.stdout.trim();
  const list = json(await cli(["kb", "list", "--json", ...acc]));
  expect(list.map((k: { slug: string }) => k.slug)).toContain("team");
  expect(json(await cli(["kb", "update", "team", "--description", "d", ...acc, "--json"]))).toEqual({ uuid: kbid });

  const invite = json(
    await cli(["kb", "invite", "create", "ana@example.com", "--role", "SMEMBER", "--kb", "team", "--json", ...acc]),
  );
  expect(invite.token).toMatch(/^kbox_inv_/);
  expect(
    json(await cli(["kb", "invite", "list", "--kb", "team", "--json", ...acc])).map((i: { email: string }) => i.email),
  ).toEqual(["ana@example.com"]);
  const accepted = json(await cli(["invite", "accept", invite.url, "--name", "Ana", "--json"]));
  expect(accepted).toMatchObject({ email: "ana@example.com", kb_id: kbid, role: "SMEMBER" });
  const twice = await cli(["invite", "accept", invite.token]);
  expect(twice.code).toBe(1);
  expect(twice.stderr).toMatch(/used, deleted or never existed/);
  const users = json(
    await cli(["kb", "users", "--kb", "team", "--update", `${accepted.user_id}=SCONTRIBUTOR`, "--json", ...acc]),
  );
  expect(users).toEqual([{ id: accepted.user_id, role: "SCONTRIBUTOR", email: "ana@example.com", name: "Ana" }]);

  const sa = await cli(["sa", "create", "--title", "ci", "--role", "SMEMBER", "--kb", "team", ...acc]);
  expect(sa.code, sa.stderr).toBe(0);
  const key = await cli(["sa", "key", "create", sa.stdout.trim(), "--expires", "1d", "--kb", "team", ...acc]);
  expect(key.stdout.trim()).toMatch(/^kbox_sa_/);
  const sas = json(await cli(["sa", "list", "--kb", "team", "--json", ...acc]));
  expect(JSON.stringify(sas)).not.toContain("kbox_sa_");

  const eph = json(await cli(["token", "ephemeral", "--kb", "team", "--ttl", "2", "--json", ...acc]));
  expect(eph.token.split(".")).toHaveLength(3);
  const secure = json(await cli(["token", "secure", "--kb", "team", "--groups", "g1", "--json", ...acc]));
  expect(secure.token.split(".")).toHaveLength(3);
  expect((await cli(["token", "secure", "--kb", "team", "--ttl", "11", ...acc])).code).toBe(2);

  const viaApi = json(await cli(["api", "GET", "/account/{account}/kbs", ...acc]));
  expect(viaApi.map((k: { id: string }) => k.id)).toContain(kbid);
  const info = json(await cli(["api", "GET", "/api/authorizer/info"]));
  expect(info.user.account_id).toBe(account.id);
  const missing = await cli(["api", "GET", "/account/{account}/kb/00000000-0000-4000-8000-000000000000", ...acc]);
  expect(missing.code).toBe(1);
  expect(JSON.parse(missing.stdout)).toEqual({ detail: "Knowledge Box does not exist" });

  expect((await cli(["kb", "delete", "team", "--yes", ...acc])).code).toBe(0);
  expect(json(await cli(["kb", "list", "--json", ...acc]))).toEqual([]);
}

describe("kbox drives a zone the same way on the socket and remotely", () => {
  it("on the local daemon (socket)", async () => {
    await drive((args, stdin) => local.cli(args, { stdin }), "local");
    // The socket's owner holds personal access tokens.
    const tok = json(await local.cli(["auth", "token", "create", "--expires", "1d", "--json"]));
    expect(tok.token).toMatch(/^kbox_pat_/);
    expect(json(await local.cli(["auth", "token", "list", "--json"]))[0]).not.toHaveProperty("token");
  });

  it("on a remote zone, logged in with an account key", async () => {
    const env = { KBOX_HOME: clientHome, KBOX_CREDENTIAL_STORE: "file", NO_COLOR: "1" };
    const cli: Cli = (args, stdin) => runCli(args, env, { stdin });
    const login = await cli(
      ["auth", "login", "--kind", "account-key", "--zone", remote.url, "--profile", "rz", "--api-key", "-"],
      remote.key,
    );
    expect(login.code, login.stderr).toBe(0);
    await drive(cli, "remote");
    // A personal access token needs a user: an account key is refused, a user token works.
    const refused = await cli(["auth", "token", "create", "--expires", "1d"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not a user's/);
    const inv = json(await cli(["api", "POST", "/account/{account}/invite", "-f", "email=bo@example.com", "-f", "role=AOWNER"]));
    const saved = await cli(["invite", "accept", inv.token, "--zone", remote.url, "--save-profile", "bo"]);
    expect(saved.code, saved.stderr).toBe(0);
    const pat = json(await cli(["--profile", "bo", "auth", "token", "create", "--expires", "1d", "--json"]));
    expect(pat.token).toMatch(/^kbox_pat_/);
    const mine = json(await cli(["--profile", "bo", "kb", "list", "--json"]));
    expect(mine).toEqual([]);
  });
});
