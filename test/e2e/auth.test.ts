import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accounts from "../../src/api/accounts.js";
import * as daemonApi from "../../src/api/daemon.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { KboxClient } from "../../src/client/client.js";
import { ApiError } from "../../src/client/errors.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { fetchJson } from "../helpers/raw.js";

let d: TestDaemon;
let kbA: string;
let kbB: string;
const scopeAll = { account_id: "local", kb_id: "*" };
const inYear = () => new Date(Date.now() + 365 * 86400e3).toISOString();

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0" });
  kbA = (await d.client.call(kbs.createKb, { body: { slug: "kb-a" } })).uuid;
  kbB = (await d.client.call(kbs.createKb, { body: { slug: "kb-b" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

/** An account with one key, made through the client on the (trusted) socket. */
async function account(
  role: accounts.KbRole,
  kbId = "*",
  expires = inYear(),
): Promise<{ sa: string; key: string; token: string; kbId: string }> {
  const scope = { account_id: "local", kb_id: kbId };
  const { id } = await d.client.call(accounts.createServiceAccount, { params: scope, body: { title: `${role} ${kbId}`, role } });
  const k = await d.client.call(accounts.createServiceAccountKey, { params: { ...scope, sa_id: id }, body: { expires } });
  return { sa: id, key: k.id, token: k.token, kbId };
}

function tcp(token?: string): KboxClient {
  return new KboxClient({ kind: "http", baseUrl: d.url!, apiKey: token });
}

async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("auth over TCP", () => {
  it("listens on loopback TCP", () => {
    expect(d.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("refuses requests without a key, or with a bad one, with 401", async () => {
    const none = await fetchJson(`${d.url}/api/v1/kbs`);
    expect(none.status).toBe(401);
    expect(typeof (none.json as { detail: string }).detail).toBe("string");
    for (const h of accounts.KEY_HEADERS) {
      const bad = await fetchJson(`${d.url}/api/v1/kbs`, { headers: { [h]: "Bearer kbox_sa_not-a-real-token" } });
      expect(bad.status, h).toBe(401);
    }
    expect(await statusOf(tcp("garbage").call(kbs.listKbs))).toBe(401);
    // Roles are ignored when the daemon does not trust the header.
    const roles = await fetchJson(`${d.url}/api/v1/kbs`, { headers: { "X-NUCLIADB-ROLES": "READER;WRITER;MANAGER;OWNER" } });
    expect(roles.status).toBe(401);
  });

  it("accepts a key in each of the three headers", async () => {
    const { token } = await account("SMEMBER");
    for (const h of ["X-PLATFORM-SERVICEACCOUNT", "X-NUCLIA-SERVICEACCOUNT", "X-STF-SERVICEACCOUNT"]) {
      const r = await fetchJson(`${d.url}/api/v1/kbs`, { headers: { [h]: `Bearer ${token}` } });
      expect(r.status, h).toBe(200);
      expect((r.json as { kbs: { slug: string }[] }).kbs.map((k) => k.slug)).toEqual(expect.arrayContaining(["kb-a", "kb-b"]));
    }
  });

  it("maps roles: SMEMBER reads, SCONTRIBUTOR writes, SOWNER manages", async () => {
    const member = tcp((await account("SMEMBER")).token);
    const contributor = tcp((await account("SCONTRIBUTOR")).token);
    const owner = tcp((await account("SOWNER")).token);

    expect((await member.call(kbs.getKb, { params: { kbid: kbA } })).slug).toBe("kb-a");
    const write = await member.call(resources.createResource, { params: { kbid: kbA }, body: { title: "no" } }).catch((e) => e);
    expect(write).toBeInstanceOf(ApiError);
    expect(write.status).toBe(403);
    expect(write.detail).toBe("Forbidden");

    const made = await contributor.call(resources.createResource, { params: { kbid: kbA }, body: { title: "yes" } });
    expect(made.uuid).toMatch(/^[0-9a-f]{32}$/);
    const kbCreate = await fetchJson(`${d.url}/api/v1/kbs`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-STF-SERVICEACCOUNT": `Bearer ${(await account("SCONTRIBUTOR")).token}` },
      body: JSON.stringify({ slug: "nope" }),
    });
    expect(kbCreate).toMatchObject({ status: 403, json: { detail: "Forbidden" } });
    expect(await statusOf(contributor.call(accounts.listServiceAccounts, { params: scopeAll }))).toBe(403);

    const kb = await owner.call(kbs.createKb, { body: { slug: "by-owner" } });
    expect(kb.slug).toBe("by-owner");
    expect(await statusOf(owner.call(kbs.deleteKb, { params: { kbid: kb.uuid } }))).toBe(200);
    // Stopping the daemon is for the socket's owner only, whatever the key's role.
    expect(await statusOf(owner.call(daemonApi.shutdown))).toBe(403);
    expect(await statusOf(owner.call(daemonApi.hello))).toBe(200);
  });

  it("limits a KB-scoped key to its knowledge box", async () => {
    const scoped = await account("SCONTRIBUTOR", kbA);
    const c = tcp(scoped.token);
    expect((await c.call(resources.createResource, { params: { kbid: kbA }, body: { title: "in scope" } })).uuid).toBeTruthy();
    const other = await fetchJson(`${d.url}/api/v1/kb/${kbB}/resources`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-NUCLIA-SERVICEACCOUNT": `Bearer ${scoped.token}` },
      body: JSON.stringify({ title: "out of scope" }),
    });
    expect(other).toMatchObject({ status: 403, json: { detail: "Forbidden" } });
    expect(await statusOf(c.call(kbs.getKb, { params: { kbid: kbB } }))).toBe(403);
    expect(await statusOf(c.call(kbs.getKbBySlug, { params: { slug: "kb-b" } }))).toBe(403);
    expect((await c.call(kbs.listKbs)).kbs.map((k) => k.uuid)).toEqual([kbA]);
    // Even a KB-scoped owner cannot create knowledge boxes or touch account-wide accounts.
    const owner = tcp((await account("SOWNER", kbA)).token);
    expect(await statusOf(owner.call(kbs.createKb, { body: { slug: "scoped-create" } }))).toBe(403);
    expect(await statusOf(owner.call(accounts.listServiceAccounts, { params: scopeAll }))).toBe(403);
    expect(
      (await owner.call(accounts.listServiceAccounts, { params: { account_id: "local", kb_id: kbA } })).length,
    ).toBeGreaterThan(0);
  });

  it("refuses a deleted key, a deleted account and an expired key with 401", async () => {
    const a = await account("SMEMBER");
    expect(await statusOf(tcp(a.token).call(kbs.listKbs))).toBe(200);
    await d.client.call(accounts.deleteServiceAccountKey, { params: { ...scopeAll, sa_id: a.sa, key_id: a.key } });
    expect(await statusOf(tcp(a.token).call(kbs.listKbs))).toBe(401);

    const b = await account("SMEMBER", kbB);
    expect(await statusOf(tcp(b.token).call(kbs.getKb, { params: { kbid: kbB } }))).toBe(200);
    await d.client.call(accounts.deleteServiceAccount, { params: { account_id: "local", kb_id: kbB, sa_id: b.sa } });
    expect(await statusOf(tcp(b.token).call(kbs.getKb, { params: { kbid: kbB } }))).toBe(401);

    const soon = await account("SMEMBER", "*", new Date(Date.now() + 1200).toISOString());
    expect(await statusOf(tcp(soon.token).call(kbs.listKbs))).toBe(200);
    await new Promise((r) => setTimeout(r, 1300));
    expect(await statusOf(tcp(soon.token).call(kbs.listKbs))).toBe(401);

    const past = await d.client
      .call(accounts.createServiceAccountKey, {
        params: { ...scopeAll, sa_id: soon.sa },
        body: { expires: "2001-01-01T00:00:00Z" },
      })
      .catch((e) => e);
    expect(past.status).toBe(400);
  });

  it("lists accounts with their keys but never a token or a hash", async () => {
    const a = await account("SOWNER");
    const list = await d.client.call(accounts.listServiceAccounts, { params: scopeAll });
    const mine = list.find((x) => x.id === a.sa);
    expect(mine).toMatchObject({ role: "SOWNER", kb_id: null, keys: [{ id: a.key }] });
    expect(Object.keys(mine!.keys[0]).sort()).toEqual(["created", "expires", "id"]);
    expect(JSON.stringify(list)).not.toContain(a.token);
  });

  it("stores tokens only as hashes", async () => {
    const a = await account("SOWNER");
    await d.daemon.services.store.idle();
    const raw = Buffer.from(a.token);
    const secret = Buffer.from(a.token.slice("kbox_sa_".length));
    for (const f of filesUnder(d.home)) {
      if (f.endsWith(".sock")) continue;
      const bytes = readFileSync(f);
      expect(bytes.includes(raw), f).toBe(false);
      expect(bytes.includes(secret), f).toBe(false);
    }
  });

  it("treats the Unix socket as the owner", async () => {
    expect((await d.client.call(kbs.listKbs)).kbs.length).toBeGreaterThanOrEqual(2);
  });
});

describe("--trust-roles-header standalone mode", () => {
  let s: TestDaemon;
  beforeAll(async () => {
    s = await startTestDaemon({ listen: "127.0.0.1:0", trustRolesHeader: true });
  });
  afterAll(async () => {
    await s.stop();
  });

  const post = (roles: string, slug: string) =>
    fetchJson(`${s.url}/api/v1/kbs`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-NUCLIADB-ROLES": roles },
      body: JSON.stringify({ slug }),
    });

  it("grants exactly the roles the header names", async () => {
    expect((await post("MANAGER", "via-roles")).status).toBe(201);
    expect(await post("READER;WRITER", "nope")).toMatchObject({ status: 403, json: { detail: "Forbidden" } });
    // The SDK sends MANAGER alone to list knowledge boxes, as upstream requires.
    expect((await fetchJson(`${s.url}/api/v1/kbs`, { headers: { "x-nucliadb-roles": "MANAGER" } })).status).toBe(200);
    expect((await fetchJson(`${s.url}/api/v1/kbs`, { headers: { "x-nucliadb-roles": "WRITER" } })).status).toBe(403);
    const list = await fetchJson(`${s.url}/api/v1/kbs`, { headers: { "x-nucliadb-roles": "reader" } });
    expect(list.status).toBe(200);
    expect((list.json as { kbs: { slug: string }[] }).kbs.map((k) => k.slug)).toEqual(["via-roles"]);
  });

  it("still needs a key or the header", async () => {
    expect((await fetchJson(`${s.url}/api/v1/kbs`)).status).toBe(401);
  });

  it("refuses to trust the header on a non-loopback listener", async () => {
    await expect(startTestDaemon({ listen: "0.0.0.0:0", trustRolesHeader: true })).rejects.toThrow(/loopback/);
  });
});

describe("kbox sa through the CLI", () => {
  it("creates accounts and keys whose tokens work over TCP, and deletes them", async () => {
    const created = await d.cli(["sa", "create", "--title", "ci", "--role", "SCONTRIBUTOR", "--kb", "kb-a"]);
    expect(created.code).toBe(0);
    const saId = created.stdout.trim();
    expect(saId).toMatch(/^[0-9a-f-]{36}$/);

    const key = await d.cli(["sa", "key", "create", saId, "--kb", "kb-a", "--expires", "30d"]);
    expect(key.code).toBe(0);
    const token = key.stdout.trim();
    expect(token).toMatch(/^kbox_sa_/);
    expect(key.stderr).toMatch(/shown only now/);
    expect(await statusOf(tcp(token).call(resources.createResource, { params: { kbid: kbA }, body: { title: "cli key" } }))).toBe(
      200,
    );

    const list = await d.cli(["sa", "list", "--kb", "kb-a"]);
    expect(list.code).toBe(0);
    const row = list.stdout.split("\n").find((l) => l.startsWith(saId));
    expect(row?.split("\t").slice(1, 3)).toEqual(["ci", "SCONTRIBUTOR"]);
    const json = JSON.parse((await d.cli(["sa", "list", "--kb", "kb-a", "--json"])).stdout) as accounts.ServiceAccount[];
    const keyId = json.find((a) => a.id === saId)!.keys[0].id;

    const refuse = await d.cli(["sa", "key", "delete", saId, keyId, "--kb", "kb-a"]);
    expect(refuse.code).toBe(2);
    expect(refuse.stderr).toMatch(/--yes/);
    expect(await statusOf(tcp(token).call(kbs.listKbs))).toBe(200);

    const del = await d.cli(["sa", "key", "delete", saId, keyId, "--kb", "kb-a", "--yes"]);
    expect(del.code).toBe(0);
    expect(await statusOf(tcp(token).call(kbs.listKbs))).toBe(401);

    const wide = (await d.cli(["sa", "create", "--title", "wide", "--role", "SMEMBER"])).stdout.trim();
    expect((await d.cli(["sa", "list"])).stdout).toContain(wide);
    const gone = await d.cli(["sa", "delete", wide, "--yes"]);
    expect(gone.code).toBe(0);
    expect((await d.cli(["sa", "list"])).stdout).not.toContain(wide);

    const missing = await d.cli(["sa", "delete", wide, "--yes"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/i);
    const badRole = await d.cli(["sa", "create", "--title", "x", "--role", "ADMIN"]);
    expect(badRole.code).toBe(2);
    const badExpiry = await d.cli(["sa", "key", "create", saId, "--kb", "kb-a", "--expires", "soon"]);
    expect(badExpiry.code).toBe(2);
    expect(badExpiry.stderr).toMatch(/expires/);
  });
});
