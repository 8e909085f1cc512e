import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sign } from "../../daemon/auth/jwt.js";
import * as accounts from "../../src/api/accounts.js";
import * as resources from "../../src/api/resources.js";
import * as zone from "../../src/api/zone.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

// kboxd as a zone, over TCP: roles of users, short-lived tokens, invitations, allowed IPs, and hostile input.
let z: RemoteZone;
let kbid: string;
const api = (path: string) => `${z.url}/api/v1${path}`;

async function call(method: string, path: string, o: { key?: string; bearer?: string; nua?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (o.key) headers["x-nuclia-serviceaccount"] = `Bearer ${o.key}`;
  if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
  if (o.nua) headers["x-nuclia-nuakey"] = `Bearer ${o.nua}`;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path.startsWith("http") ? path : api(path), {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown> & unknown[] };
}

/** Invite `email` to the knowledge box with `role` and accept: a user token. */
async function member(email: string, role: string): Promise<string> {
  const inv = await call("POST", `/account/${z.account.id}/kb/${kbid}/invite`, { key: z.key, body: { email, role } });
  expect(inv.status).toBe(201);
  const acc = await call("POST", "/invites/accept", { body: { token: inv.json.token } });
  expect(acc.status).toBe(201);
  return acc.json.token as unknown as string;
}

beforeAll(async () => {
  z = await startRemoteZone("zone-t");
  const created = await call("POST", `/account/${z.account.slug}/kbs`, { key: z.key, body: { slug: "team", title: "Team" } });
  kbid = created.json.id as unknown as string;
  const docs = [
    { slug: "open", title: "Open note", text: "The lighthouse keeper logs every ship." },
    { slug: "g1doc", title: "Group one", text: "The lighthouse budget is secret to group one.", groups: ["g1"] },
    { slug: "g2doc", title: "Group two", text: "The lighthouse roster is secret to group two.", groups: ["g2"] },
  ];
  for (const d of docs) {
    await z.d.client.call(resources.createResource, {
      params: { kbid },
      body: {
        slug: d.slug,
        title: d.title,
        texts: { body: { body: d.text, format: "PLAIN" } },
        ...(d.groups ? { security: { access_groups: d.groups } } : {}),
      } as never,
    });
  }
  await z.d.daemon.services.processing.idle();
  await (await z.d.daemon.services.store.kb(kbid)).idle();
});
afterAll(async () => {
  await z.stop();
});

describe("accounts", () => {
  it("has a default account whose id is not `local`, and answers by id or slug", async () => {
    expect(z.account.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(z.account.slug).toBe("local");
    const got = await call("GET", `/account/${z.account.slug}`, { key: z.key });
    expect(got.json).toMatchObject({ id: z.account.id, zone: "zone-t", current_kbs: 1 });
    expect((await call("GET", "/zones")).json).toEqual([{ id: "zone-t", title: "zone-t", slug: "zone-t", private: false }]);
  });

  it("keeps accounts apart: another account's key sees none of this one", async () => {
    const other = await z.d.client.call(zone.createAccount, {
      body: { slug: "acme", title: "Acme" },
    });
    const params = { account_id: other.id, kb_id: "*" };
    const sa = await z.d.client.call(accounts.createServiceAccount, { params, body: { title: "o", role: "SOWNER" } });
    const { token } = await z.d.client.call(accounts.createServiceAccountKey, {
      params: { ...params, sa_id: sa.id },
      body: { expires: new Date(Date.now() + 3600e3).toISOString() },
    });
    expect((await call("GET", `/account/${other.id}/kbs`, { key: token })).json).toEqual([]);
    expect((await call("GET", `/account/${z.account.id}/kbs`, { key: token })).status).toBe(403);
    expect((await call("GET", `/kb/${kbid}`, { key: token })).status).toBe(403);
    expect((await call("GET", `/account/${other.id}/kb/${kbid}`, { key: token })).status).toBe(403);
    // The socket's owner reaches both accounts, and the box is not in the other one.
    expect((await call("GET", `/account/${other.id}/kb/${kbid}`, { key: z.key })).status).toBe(403);
  });

  it("answers a clear 422 for what the zone does not serve", async () => {
    const agent = await call("POST", `/account/${z.account.id}/kbs`, {
      key: z.key,
      body: { slug: "ag", title: "A", mode: "memory" },
    });
    // Modes kb, agent and agent_no_memory are served (docs/agents.md); others are 422.
    expect(agent.status).toBe(422);
    expect(JSON.stringify(agent.json)).toContain("mode");
    const ext = await call("POST", `/account/${z.account.id}/kbs`, {
      key: z.key,
      body: { slug: "ext", title: "E", external_index_provider: { type: "pinecone" } },
    });
    expect(ext.status).toBe(422);
    expect(JSON.stringify(ext.json)).toContain("external_index_provider");
    const saml = await call("PATCH", `/account/${z.account.id}`, { key: z.key, body: { saml_config: { domains: ["x.test"] } } });
    expect(saml.status).toBe(422);
    expect(JSON.stringify(saml.json)).toMatch(/saml_config.*SAML single sign-on is not available/);
  });
});

describe("users and roles", () => {
  it("a member (SMEMBER) reads but cannot write; a contributor writes but cannot manage", async () => {
    const reader = await member("reader@example.com", "SMEMBER");
    expect((await call("GET", `/kb/${kbid}`, { bearer: reader })).status).toBe(200);
    expect((await call("POST", `/kb/${kbid}/resources`, { bearer: reader, body: { title: "x" } })).status).toBe(403);
    const contrib = await member("contrib@example.com", "SCONTRIBUTOR");
    expect((await call("POST", `/kb/${kbid}/resources`, { bearer: contrib, body: { title: "by contrib" } })).status).toBe(201);
    expect((await call("PATCH", `/account/${z.account.id}/kb/${kbid}`, { bearer: contrib, body: { title: "no" } })).status).toBe(
      403,
    );
    expect((await call("GET", `/account/${z.account.id}/kb/${kbid}/users`, { bearer: contrib })).status).toBe(403);
    // Members list only their boxes, with their role.
    const list = await call("GET", `/account/${z.account.id}/kbs`, { bearer: contrib });
    expect(list.json.map((k: { slug: string; role_on_kb: string }) => [k.slug, k.role_on_kb])).toEqual([
      ["team", "SCONTRIBUTOR"],
    ]);
  });

  it("refuses an invitation redeemed twice, a deleted one and an expired one", async () => {
    const inv = await call("POST", `/account/${z.account.id}/kb/${kbid}/invite`, {
      key: z.key,
      body: { email: "twice@example.com", role: "SMEMBER" },
    });
    expect((await call("POST", "/invites/accept", { body: { token: inv.json.token } })).status).toBe(201);
    expect((await call("POST", "/invites/accept", { body: { token: inv.json.token } })).status).toBe(404);
    const del = await call("POST", `/account/${z.account.id}/kb/${kbid}/invite`, {
      key: z.key,
      body: { email: "gone@example.com", role: "SMEMBER" },
    });
    expect(
      (await call("DELETE", `/account/${z.account.id}/kb/${kbid}/invite?email=gone%40example.com`, { key: z.key })).status,
    ).toBe(204);
    expect((await call("POST", "/invites/accept", { body: { token: del.json.token } })).status).toBe(404);
    // An invitation whose expiry passed (written as the store holds it, a second after it was made).
    const exp = await call("POST", `/account/${z.account.id}/kb/${kbid}/invite`, {
      key: z.key,
      body: { email: "late@example.com", role: "SMEMBER", expires: new Date(Date.now() + 1000).toISOString() },
    });
    await new Promise((r) => setTimeout(r, 1100));
    const late = await call("POST", "/invites/accept", { body: { token: exp.json.token } });
    expect(late.status).toBe(410);
  });
});

describe("short-lived tokens", () => {
  it("refuses an expired ephemeral token and a forged one", async () => {
    const key = Buffer.from(readFileSync(join(z.d.home, "data", "secrets", "signing.key"), "utf8"), "base64");
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: z.url,
      kind: "ephemeral" as const,
      acc: z.account.id,
      kb: kbid,
      roles: ["READER"],
      parent: "socket",
      iat: now - 600,
      jti: "x",
    };
    const valid = sign({ ...claims, exp: now + 60 }, key);
    expect((await call("GET", `/kb/${kbid}?eph-token=${valid}`)).status).toBe(200);
    const expired = sign({ ...claims, exp: now - 1 }, key);
    expect((await call("GET", `/kb/${kbid}?eph-token=${expired}`)).status).toBe(401);
    const forged = sign({ ...claims, exp: now + 60, roles: ["OWNER"] }, Buffer.alloc(32, 7));
    expect((await call("GET", `/kb/${kbid}?eph-token=${forged}`)).status).toBe(401);
    const tampered = `${valid.split(".")[0]}.${Buffer.from(JSON.stringify({ ...claims, exp: now + 60, roles: ["OWNER"] })).toString("base64url")}.${valid.split(".")[2]}`;
    expect((await call("GET", `/kb/${kbid}`, { bearer: tampered })).status).toBe(401);
  });

  it("a secure token with groups [g1] finds only what g1 may see", async () => {
    const res = await call("POST", "/service_account_temporal_key", {
      key: z.key,
      body: { ttl: 5, security_groups: ["g1"], kb: kbid },
    });
    expect(res.status).toBe(201);
    const find = await call("POST", `/kb/${kbid}/find`, {
      bearer: res.json.token as unknown as string,
      body: { query: "lighthouse", features: ["keyword"], security: { groups: ["g2"] } },
    });
    expect(find.status).toBe(200);
    const titles = Object.values(find.json.resources as Record<string, { title: string }>)
      .map((r) => r.title)
      .sort();
    expect(titles).toEqual(["Group one", "Open note"]);
    expect((await call("POST", "/service_account_temporal_key", { key: z.key, body: { ttl: 11, kb: kbid } })).status).toBe(422);
  });

  it("revokes tokens at once with the key that minted them", async () => {
    const params = { account_id: z.account.id, kb_id: kbid };
    const sa = await z.d.client.call(accounts.createServiceAccount, { params, body: { title: "short", role: "SMEMBER" } });
    const k = await z.d.client.call(accounts.createServiceAccountKey, {
      params: { ...params, sa_id: sa.id },
      body: { expires: new Date(Date.now() + 3600e3).toISOString() },
    });
    const eph = await call("POST", "/ephemeral_token", { key: k.token, body: { ttl: 2 } });
    expect(eph.status).toBe(201);
    const token = eph.json.token as unknown as string;
    expect((await call("GET", `/kb/${kbid}?eph-token=${token}`)).status).toBe(200);
    await z.d.client.call(accounts.deleteServiceAccountKey, { params: { ...params, sa_id: sa.id, key_id: k.id } });
    expect((await call("GET", `/kb/${kbid}?eph-token=${token}`)).status).toBe(401);
  });

  it("personal access tokens manage the account as Bearer, until deleted", async () => {
    const pat = await call("POST", "/user/pa_tokens", {
      bearer: await member("pat-user@example.com", "SMEMBER"),
      body: { description: "x", expiration_date: new Date(Date.now() + 3600e3).toISOString() },
    });
    expect(pat.status).toBe(201);
    // The socket owner's token (ROOT) manages the account.
    const { token, id } = await z.d.client.call(zone.createPersonalToken, {
      body: { description: "root", expiration_date: new Date(Date.now() + 3600e3).toISOString() },
    });
    expect((await call("GET", `/account/${z.account.id}/kb/${kbid}/users`, { bearer: token })).status).toBe(200);
    expect((await call("DELETE", `/user/pa_token/${id}`, { bearer: token })).status).toBe(204);
    expect((await call("GET", `/account/${z.account.id}/kbs`, { bearer: token })).status).toBe(401);
  });

  it("a NUA key manages knowledge boxes only when created with allow_kb_management", async () => {
    const plain = await call("POST", `/account/${z.account.id}/nua_clients`, { key: z.key, body: { title: "nua" } });
    const manage = await call("POST", `/account/${z.account.id}/nua_clients`, {
      key: z.key,
      body: { title: "nua-m", allow_kb_management: true },
    });
    expect((await call("GET", `/account/${z.account.id}/kbs`, { nua: plain.json.token as unknown as string })).status).toBe(403);
    expect((await call("GET", `/account/${z.account.id}/kbs`, { nua: manage.json.token as unknown as string })).status).toBe(200);
    const list = await call("GET", `/account/${z.account.id}/nua_clients`, { key: z.key });
    expect(JSON.stringify(list.json)).not.toContain("kbox_nua_");
  });
});

describe("allowed IPs", () => {
  it("refuses a request from an address the knowledge box does not allow, with a clear 403", async () => {
    const kb2 = await call("POST", `/account/${z.account.id}/kbs`, {
      key: z.key,
      body: { slug: "fenced", title: "Fenced", allowed_ip_addresses: ["10.1.2.3"] },
    });
    const res = await call("GET", `/kb/${kb2.json.id}`, { key: z.key });
    expect(res.status).toBe(403);
    expect(res.json.detail).toMatch(/127\.0\.0\.1 are not allowed/);
    await call("PATCH", `/account/${z.account.id}/kb/${kb2.json.id}`, {
      key: z.key,
      body: { allowed_ip_addresses: ["127.0.0.0/8"] },
    });
    expect((await call("GET", `/kb/${kb2.json.id}`, { key: z.key })).status).toBe(200);
  });
});

describe("hostile requests", () => {
  it("answers 300+ bad ids, roles and tokens on the new routes with 4xx, and stays up", async () => {
    const a = z.account.id;
    const bad = ["x", "../../etc", "%00", "00000000-0000-4000-8000-000000000000", "' OR 1=1", "a".repeat(300), "{}", "é~"];
    const tokens = ["", "kbox_pat_nope", "kbox_sa_nope", "kbox_nua_nope", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", "Bearer"];
    const reqs: [string, string, Record<string, unknown>][] = [];
    for (const b of bad) {
      const e = encodeURIComponent(b);
      reqs.push(["GET", `/account/${e}`, { key: z.key }]);
      reqs.push(["GET", `/account/${a}/kb/${e}`, { key: z.key }]);
      reqs.push(["GET", `/account/${a}/kb/${e}/users`, { key: z.key }]);
      reqs.push(["PATCH", `/account/${a}/kb/${kbid}/users`, { key: z.key, body: { add: [{ id: b, role: "SOWNER" }] } }]);
      reqs.push(["PATCH", `/account/${a}/kb/${kbid}/users`, { key: z.key, body: { add: [{ id: "u", role: b }] } }]);
      reqs.push(["POST", `/account/${a}/kb/${kbid}/invite`, { key: z.key, body: { email: b, role: "SMEMBER" } }]);
      reqs.push(["POST", `/account/${a}/kb/${kbid}/invite`, { key: z.key, body: { email: "a@b.co", role: b } }]);
      reqs.push(["POST", "/invites/accept", { body: { token: b } }]);
      reqs.push(["DELETE", `/account/${a}/nua_client/${e}`, { key: z.key }]);
      reqs.push(["DELETE", `/user/pa_token/${e}`, { bearer: "kbox_pat_x" }]);
      reqs.push(["POST", "/service_account_temporal_key", { key: z.key, body: { ttl: b, kb: kbid } }]);
      reqs.push(["POST", `/account/${a}/kb/${kbid}/service_account/${e}/keys`, { key: z.key, body: { expires: "2099-01-01" } }]);
      for (const t of tokens) {
        reqs.push(["GET", `/account/${a}/kbs`, { bearer: `${t}${b}` }]);
        reqs.push(["GET", `/account/${a}/kbs`, { key: `${t}${b}` }]);
        reqs.push(["GET", `/kb/${kbid}?eph-token=${encodeURIComponent(t + b)}`, {}]);
        reqs.push(["POST", "/ephemeral_token", { nua: `${t}${b}`, body: {} }]);
      }
    }
    expect(reqs.length).toBeGreaterThanOrEqual(300);
    const wrong: string[] = [];
    for (const [m, p, o] of reqs) {
      const r = await call(m, p, o);
      if (r.status < 400 || r.status >= 500) wrong.push(`${m} ${p.slice(0, 80)}: ${r.status}`);
    }
    expect(wrong).toEqual([]);
    expect((await call("GET", `/account/${a}`, { key: z.key })).status).toBe(200);
    // No secret reached the daemon's log.
    const log = readFileSync(join(z.d.home, "logs", "kboxd.log"), "utf8");
    expect(log).not.toMatch(/kbox_(sa|pat|nua|inv)_[A-Za-z0-9_-]{20}/);
  });
});

describe("browsers and downloads", () => {
  it("answers CORS for an allowed origin, refuses another, and says no download request exists", async () => {
    const kb = await call("POST", `/account/${z.account.id}/kbs`, {
      key: z.key,
      body: { slug: "web", title: "Web", allowed_origins: ["https://app.example"] },
    });
    const id = kb.json.id as unknown as string;
    const pre = await fetch(api(`/kb/${id}/find`), {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const ok = await fetch(api(`/kb/${id}`), {
      headers: { origin: "https://app.example", "x-nuclia-serviceaccount": `Bearer ${z.key}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await fetch(api(`/kb/${id}`), {
      headers: { origin: "https://evil.example", "x-nuclia-serviceaccount": `Bearer ${z.key}` },
    });
    expect(other.status).toBe(403);
    expect(((await other.json()) as { detail: string }).detail).toMatch(/evil\.example is not allowed/);
    const dl = await call("GET", `/kb/${id}/activity/download_request/abc`, { key: z.key });
    expect(dl.status).toBe(404);
  });
});
