import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { ApiError } from "../../src/client/errors.js";
import { TEAM_SITE } from "../helpers/cloud-apis.js";
import { type CloudStandin, startCloudStandin } from "../helpers/cloud-standin.js";
import type { CloudTree } from "../helpers/cloud-tree.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { storedText } from "../helpers/stored.js";
import { waitIdle } from "./ingest-helpers.js";

const CALLBACK = "http://127.0.0.1:9/api/v1/external_connections/callback";
let cs: CloudStandin;
let d: TestDaemon;
let kbid: string;

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return (e as ApiError).status;
  }
}

const create = (provider: sync.Provider, credentials?: Record<string, unknown>) =>
  d.client.call(sync.createConnection, { params: { kbid }, body: { provider, credentials } });
const browse = (connection_id: string, query: sync.BrowseQuery) =>
  d.client.call(sync.browseStorage, { params: { kbid, connection_id }, query });

/** Every folder of a browse, page after page; how many pages it took. */
async function allFolders(connection_id: string, query: sync.BrowseQuery) {
  const names: string[] = [];
  let pages = 0;
  let token: string | null | undefined;
  do {
    const r = await browse(connection_id, { ...query, page_token: token });
    names.push(...(r.folders ?? []).map((f) => f.path));
    token = r.next_page_token;
    pages++;
  } while (token && pages < 20);
  return { names, pages };
}

/** The OAuth flow as a user goes through it: authorize URL, consent at the provider, callback. */
async function connect(provider: sync.Provider) {
  const a = (await create(provider)) as { authorize_url: string };
  const u = new URL(a.authorize_url);
  expect(a.authorize_url.startsWith(cs.url)).toBe(true);
  expect(u.searchParams.get("client_id")).toBe("kbox-test-client");
  expect(u.searchParams.get("redirect_uri")).toBe(CALLBACK);
  const { code, state, redirect } = await cs.consent(a.authorize_url);
  expect(redirect).toBe(CALLBACK);
  // A forged state is refused; the real one is redeemed once.
  expect(await status(d.client.call(sync.oauthCallback, { query: { code, state: "forged" } }))).toBe(400);
  const conn = await d.client.call(sync.oauthCallback, { query: { code, state } });
  expect(conn).toMatchObject({ provider, kb_id: kbid });
  expect(await status(d.client.call(sync.oauthCallback, { query: { code, state } }))).toBe(400);
  return conn;
}

/** Synced resources of a config by origin path. */
async function synced(configId: string) {
  const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 200 } });
  const out = new Map<string, { id: string; labels: string[]; fileId: string }>();
  for (const r of list.resources) {
    const full = (await d.client.call(resources.getResource.byId, {
      params: { kbid, rid: r.id },
      query: { show: ["basic", "origin"] },
    })) as any;
    if (full.origin?.source_id !== configId) continue;
    const labels = (full.usermetadata?.classifications ?? []).map((c: { label: string }) => c.label);
    out.set(full.origin.path, { id: r.id, labels, fileId: full.origin.sync_metadata.file_id });
  }
  return out;
}

async function waitJob(jobId: string) {
  for (let i = 0; i < 600; i++) {
    const j = await d.client.call(sync.getJob, { params: { kbid, job_id: jobId } });
    if (j.status !== "pending" && j.status !== "running") {
      await waitIdle(d.client, kbid);
      return j;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("sync did not finish");
}

async function firstJob(configId: string) {
  for (let i = 0; i < 100; i++) {
    const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 5 } });
    if (jobs.items.length) return waitJob(jobs.items[0].id);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no created job");
}

const seed = (t: CloudTree, root: string) => {
  t.put(`${root}/notes/tides.md`, "# Tides\n\nThe tide tables for the harbour.");
  t.put(`${root}/notes/old.md`, "# Old\n\nAn old memo about lanterns.");
  t.put(`${root}/report.txt`, "The quarterly report about anchors.");
  t.put(`${root}/skip.log`, "a log file the filter leaves out");
  t.put("/outside.txt", "not under the synced folder");
  t.mkdir("/other");
  t.mkdir("/zeta");
};

/** Sync a folder, then change it at the provider (update, move, delete, add) with every access token revoked. */
async function syncScenario(
  t: CloudTree,
  root: string,
  connId: string,
  place: Partial<sync.AddSyncConfig>,
  renewals: () => number,
) {
  const config = await d.client.call(sync.addConfig, {
    params: { kbid },
    body: {
      name: `${connId} sync`,
      external_connection_id: connId,
      ...place,
      file_filter: { mode: "exclude", extensions: ["log"] },
      labels: [{ labelset: "source", label: "cloud" }],
    },
  });
  let job = await firstJob(config.id);
  expect(job.status).toBe("completed");
  expect(job.stats).toMatchObject({ scanned: 3, added: 3, failed: 0 });
  let files = await synced(config.id);
  expect([...files.keys()].sort()).toEqual(["/notes/old.md", "/notes/tides.md", "/report.txt"]);
  expect(files.get("/report.txt")?.labels).toEqual(["cloud"]);
  expect(files.get("/report.txt")?.fileId).toBe(t.at(`${root}/report.txt`)?.id);
  const tides = await d.client.call(find.find, { params: { kbid }, body: { query: "harbour tide", features: ["keyword"] } });
  expect(Object.keys(tides.resources)).toContain(files.get("/notes/tides.md")?.id);

  const before = files;
  const renewed = renewals();
  t.put(`${root}/report.txt`, `The quarterly report about anchors and chains, revised ${connId}.`);
  t.move(`${root}/notes/old.md`, `${root}/archive/old.md`);
  t.remove(`${root}/notes/tides.md`);
  t.put(`${root}/new.md`, "# New\n\nA new page about buoys.");
  cs.revokeAccessTokens();
  job = await waitJob((await d.client.call(sync.triggerSync, { params: { kbid, config_id: config.id }, body: {} })).id);
  expect(job.status).toBe("completed");
  expect(job.stats).toMatchObject({ added: 1, updated: 1, moved: 1, deleted: 1, unchanged: 0, failed: 0 });
  expect(renewals()).toBeGreaterThan(renewed);
  files = await synced(config.id);
  expect([...files.keys()].sort()).toEqual(["/archive/old.md", "/new.md", "/report.txt"]);
  expect(files.get("/archive/old.md")?.id).toBe(before.get("/notes/old.md")?.id);
  const chains = await d.client.call(find.find, {
    params: { kbid },
    body: { query: `chains revised ${connId}`, features: ["keyword"] },
  });
  expect(Object.keys(chains.resources)).toContain(files.get("/report.txt")?.id);
  const logs = await d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { limit: 50 } });
  expect(logs.items.map((l) => l.message)).toEqual(
    expect.arrayContaining([
      "moved notes/old.md -> archive/old.md",
      "deleted notes/tides.md",
      "added new.md",
      "updated report.txt",
    ]),
  );
  const v = await d.client.call(sync.validateResources, {
    params: { kbid, config_id: config.id },
    body: {
      credentials: "",
      resources: [
        { file_id: t.at(`${root}/new.md`)!.id },
        { file_id: "report.txt" },
        { file_id: "skip.log" },
        { file_id: "nope" },
      ],
    },
  });
  expect(v.valid_resources.map((r) => r.file_id)).toEqual([t.at(`${root}/new.md`)!.id, "report.txt"]);
  expect(v.invalid_resources.map((r) => r.resource.file_id)).toEqual(["skip.log", "nope"]);
}

const grants = (key: string) => cs.grants.get(key) ?? 0;

beforeAll(async () => {
  cs = await startCloudStandin();
  d = await startTestDaemon({ keepHome: false, env: { ...cs.env, KBOX_OAUTH_REDIRECT_URL: CALLBACK } });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "clouds" } })).uuid;
});
afterAll(async () => {
  await d?.stop();
  await cs?.close();
});

describe("cloud-storage connections against local stand-ins of the providers' APIs", () => {
  it("drive_oauth: authorize, callback, drives and folders paged, sync with refresh, validate", async () => {
    const t = cs.trees.google;
    seed(t, "/team");
    const conn = await connect("drive_oauth");
    const drives = await browse(conn.id, {});
    expect(drives.drives?.map((x) => x.id)).toEqual(["my-drive", "shared-1", "shared-2"]);
    expect((await browse(conn.id, { page_token: drives.next_page_token })).drives?.map((x) => x.id)).toEqual(["shared-3"]);
    const top = await browse(conn.id, { drive_id: "my-drive" });
    expect(top.folders?.map((f) => f.name)).toEqual(["other", "team"]);
    const more = await browse(conn.id, { drive_id: "my-drive", page_token: top.next_page_token });
    expect(more.folders?.map((f) => f.name)).toEqual(["zeta"]);
    expect(more.next_page_token).toBeNull();
    expect(await status(browse(conn.id, { site_id: "x" }))).toBe(400);
    // Tokens are sealed at rest: not in the box's files in clear.
    const stored = await storedText(d.home, kbid, "sync_connections");
    expect(stored.docs).toContain("sealed_credentials");
    expect(stored.docs).not.toMatch(/at-google|rt-google/);
    expect(stored.bytes).not.toMatch(/at-google|rt-google/);
    await syncScenario(t, "/team", conn.id, { folder_id: t.at("/team")!.id }, () => grants("google:refresh_token"));
  });

  it("directory_oauth: Resolve Site (me/onedrive and a site URL), site drives paged, folders by path, sync", async () => {
    const t = cs.trees.msMe;
    seed(t, "/team");
    const conn = await connect("directory_oauth");
    expect(conn.capabilities).toEqual({ has_sites: true, requires_site_search: false, requires_site_url_resolution: true });
    const resolve = (site_url: string) =>
      d.client.call(sync.resolveSite, { params: { kbid, connection_id: conn.id }, query: { site_url } });
    expect(await resolve("OneDrive")).toMatchObject({ id: "me" });
    expect(await resolve("me")).toMatchObject({ id: "me" });
    expect(await resolve("https://contoso.example/sites/team")).toMatchObject({ id: TEAM_SITE.id, name: "Team" });
    const site = await browse(conn.id, { site_id: TEAM_SITE.id });
    expect(site.drives?.map((x) => x.id)).toEqual(["drive-team", "drive-archive"]);
    expect((await browse(conn.id, { site_id: TEAM_SITE.id, page_token: site.next_page_token })).drives?.map((x) => x.id)).toEqual(
      ["drive-wiki"],
    );
    expect((await browse(conn.id, { site_id: "me" })).drives?.map((x) => x.id)).toEqual(["drive-me"]);
    expect(
      (await browse(conn.id, { drive_id: "drive-me", site_id: "ignored", path: "team" })).folders?.map((f) => f.path),
    ).toEqual(["team/notes"]);
    expect(await status(browse(conn.id, {}))).toBe(400);
    expect(await status(browse(conn.id, { site_search: "x" }))).toBe(400);
    expect(await status(browse(conn.id, { site_id: "not-a-site-id" }))).toBe(400);
    expect(await status(browse(conn.id, { drive_id: "drive-me", page_token: "http://elsewhere.example/x" }))).toBe(400);
    await syncScenario(t, "/team", conn.id, { drive_id: "drive-me", sync_root_path: "team" }, () => grants("ms:refresh_token"));
  });

  it("fileshare_oauth: no drives, folders by path paged with the cursor, sync", async () => {
    const t = cs.trees.dropbox;
    seed(t, "/team");
    const conn = await connect("fileshare_oauth");
    expect(await status(browse(conn.id, { drive_id: "x" }))).toBe(400);
    // The root holds outside.txt too: pages count every entry, folders are what Browse keeps.
    expect(await allFolders(conn.id, {})).toEqual({ names: ["/other", "/team", "/zeta"], pages: 2 });
    expect((await browse(conn.id, { path: "/team" })).folders?.map((f) => f.path)).toEqual(["/team/notes"]);
    expect(
      await status(
        d.client.call(sync.addConfig, { params: { kbid }, body: { name: "x", external_connection_id: conn.id, drive_id: "d" } }),
      ),
    ).toBe(400);
    await syncScenario(t, "/team", conn.id, { sync_root_path: "/team" }, () => grants("dropbox:refresh_token"));
  });

  it("filebox_oauth: folders by id paged with markers, sync", async () => {
    const t = cs.trees.box;
    seed(t, "/team");
    const conn = await connect("filebox_oauth");
    expect(await allFolders(conn.id, {})).toEqual({ names: ["other", "team", "zeta"], pages: 2 });
    expect((await browse(conn.id, { folder_id: t.at("/team")!.id })).folders?.map((f) => f.name)).toEqual(["notes"]);
    await syncScenario(t, "/team", conn.id, { folder_id: t.at("/team")!.id }, () => grants("box:refresh_token"));
  });

  it("directory_certificate_credentials: JWT client assertion, site_search (at most 50), no Resolve Site, sync a drive", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.setRsaPublicKey((key as forge.pki.rsa.PrivateKey).n, (key as forge.pki.rsa.PrivateKey).e);
    cert.serialNumber = "01";
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: "commonName", value: "kbox-test" }]);
    cert.setIssuer([{ name: "commonName", value: "kbox-test" }]);
    cert.sign(key, forge.md.sha256.create());
    const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], "pfx-pass", { algorithm: "3des" });
    const pfx_base64 = forge.util.encode64(forge.asn1.toDer(p12).getBytes());
    const creds = { tenant_id: "contoso-tenant", client_id: "cert-app", pfx_base64, pfx_password: "pfx-pass" };

    expect(await status(create("directory_certificate_credentials", { ...creds, pfx_password: "wrong" }))).toBe(422);
    expect(await status(create("directory_certificate_credentials"))).toBe(422);
    // Not registered at the provider yet: the first token is refused, and creation says so.
    expect(await status(create("directory_certificate_credentials", creds))).toBe(403);
    cs.registerCertificate("contoso-tenant", "cert-app", forge.pki.certificateToPem(cert));
    const conn = (await create("directory_certificate_credentials", creds)) as sync.ExternalConnection;
    expect(conn.capabilities).toEqual({ has_sites: true, requires_site_search: true, requires_site_url_resolution: false });
    expect(JSON.stringify(conn)).not.toContain("pfx");
    const sites = await browse(conn.id, { site_search: "Project" });
    expect(sites.sites).toHaveLength(50);
    expect(await status(browse(conn.id, { site_search: "Project", drive_id: "drive-team" }))).toBe(400);
    expect(await status(browse(conn.id, { site_id: "me" }))).toBe(400);
    expect(
      await status(d.client.call(sync.resolveSite, { params: { kbid, connection_id: conn.id }, query: { site_url: "me" } })),
    ).toBe(400);
    expect((await browse(conn.id, { site_id: TEAM_SITE.id })).drives?.[0].id).toBe("drive-team");
    const t = cs.trees.msTeam;
    seed(t, "/team");
    await syncScenario(t, "/team", conn.id, { drive_id: "drive-team", folder_id: t.at("/team")!.id }, () =>
      grants("ms:client_credentials"),
    );
  });
});
