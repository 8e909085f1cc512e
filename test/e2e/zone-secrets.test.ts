/**
 * Issue 19: the zone's secrets (service-account keys, invitation tokens, user tokens, personal access
 * tokens, NUA keys) are stored only as hashes: no file under the daemon's home, no backup archive and
 * no `--json` listing holds one, and the daemon log names none.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as bk from "../../src/api/backups.js";
import { lanceRowsUnder } from "../helpers/stored.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

let z: RemoteZone;
const out = mkdtempSync(join(tmpdir(), "kbox-zone-secrets-"));

async function call(method: string, path: string, o: { key?: string; bearer?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (o.key) headers["x-nuclia-serviceaccount"] = `Bearer ${o.key}`;
  if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${z.url}/api/v1${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  return { status: res.status, text, json: (text ? JSON.parse(text) : undefined) as Record<string, string> };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    const st = statSync(p);
    return st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : []; // not the socket
  });
}

beforeAll(async () => {
  z = await startRemoteZone("secrets");
});
afterAll(async () => {
  await z?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe("zone secrets", () => {
  it("are stored only as hashes: not in the data folder, a backup, a listing or the log", async () => {
    const a = z.account.id;
    const kb = await call("POST", `/account/${a}/kbs`, { key: z.key, body: { slug: "vault", title: "Vault" } });
    expect(kb.status).toBe(201);
    const kbid = kb.json.id;
    const secrets: string[] = [z.key];
    const inv = await call("POST", `/account/${a}/kb/${kbid}/invite`, {
      key: z.key,
      body: { email: "ann@example.com", role: "SOWNER" },
    });
    expect(inv.status).toBe(201);
    secrets.push(inv.json.token);
    const user = await call("POST", "/invites/accept", { body: { token: inv.json.token } });
    expect(user.status).toBe(201);
    secrets.push(user.json.token);
    const pat = await call("POST", "/user/pa_tokens", {
      bearer: user.json.token,
      body: { description: "ci", expiration_date: new Date(Date.now() + 7 * 86400e3).toISOString() },
    });
    expect(pat.status).toBeLessThan(300);
    secrets.push(pat.json.token);
    const nua = await call("POST", `/account/${a}/nua_clients`, { key: z.key, body: { title: "app" } });
    expect(nua.status).toBeLessThan(300);
    secrets.push(nua.json.token);
    for (const s of secrets) expect(typeof s === "string" && s.length >= 16).toBe(true);

    // What the service answers after creation lists the credentials without their secrets.
    const listings = await Promise.all([
      call("GET", "/user/pa_tokens", { bearer: user.json.token }),
      call("GET", `/account/${a}/nua_clients`, { key: z.key }),
      call("GET", `/account/${a}/kb/${kbid}/invites`, { key: z.key }),
    ]);
    for (const l of listings) {
      expect(l.status).toBe(200);
      for (const s of secrets) expect(l.text).not.toContain(s);
    }

    // A backup of the box.
    const { id } = await z.d.client.call(bk.createBackup, { params: { account_id: a }, body: { kb_id: kbid } });
    for (let i = 0; i < 600; i++) {
      const b = await z.d.client.call(bk.getBackup, { params: { account_id: a, backup_id: id } });
      if (b.status !== "running") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const dir = join(z.d.home, "data", "backups");
    const archive = readdirSync(dir).find((n) => n.startsWith(id)) as string;
    execFileSync("tar", ["-xzf", join(dir, archive), "-C", out]);
    const backupText = filesUnder(out).map((f) => readFileSync(f).toString("latin1"));
    expect(backupText.join("")).toContain("vault"); // the archive is readable here: the check below means something

    // Every byte under the daemon's home (tables, records, the log), and the archive's files.
    // Tables' documents are stored compressed: their rows are read back through LanceDB too.
    const rows = [...(await lanceRowsUnder(z.d.home)), ...(await lanceRowsUnder(out))];
    expect(rows.join("")).toContain("vault"); // the rows are read: the check below means something
    const everything = [...filesUnder(z.d.home).map((f) => readFileSync(f).toString("latin1")), ...backupText, ...rows];
    for (const s of secrets) for (const t of everything) expect(t.includes(s)).toBe(false);
  });
});
