import { CopyObjectCommand, DeleteObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3Client } from "../../daemon/store/bucket.js";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import * as sync from "../../src/api/sync.js";
import { ApiError } from "../../src/client/errors.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { type LocalS3, startLocalS3 } from "../helpers/s3.js";
import { storedText } from "../helpers/stored.js";
import { type LocalSts, startLocalSts } from "../helpers/sts.js";
import { waitIdle } from "./ingest-helpers.js";

let s3: LocalS3;
let client: S3Client;
let d: TestDaemon;
let kbid: string;
let connId: string;
let configId: string;
let sts: LocalSts;
const ROLE = "arn:aws:iam::123456789012:role/kbox-reader";
const trusted = { roleArn: ROLE, externalId: "" };
const DAEMON_AWS = { accessKeyId: "daemon-key", secretAccessKey: "daemon-secret", region: "us-east-1" };

const put = (Key: string, Body: string) => client.send(new PutObjectCommand({ Bucket: "docs", Key, Body }));
const del = (Key: string) => client.send(new DeleteObjectCommand({ Bucket: "docs", Key }));

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return (e as ApiError).status;
  }
}

/** Synced resources by origin path, with their labels. */
async function synced() {
  const list = await d.client.call(resources.listResources, { params: { kbid }, query: { size: 100 } });
  const out = new Map<string, { id: string; title: string; labels: string[]; etag: string }>();
  for (const r of list.resources) {
    const full = (await d.client.call(resources.getResource.byId, {
      params: { kbid, rid: r.id },
      query: { show: ["basic", "origin"] },
    })) as any;
    if (full.origin?.source_id !== configId) continue;
    const labels = (full.usermetadata?.classifications ?? []).map((c: { label: string }) => c.label);
    out.set(full.origin.path, { id: r.id, title: full.title, labels, etag: full.origin.metadata.etag });
  }
  return out;
}

async function run(full = false) {
  const job = await d.client.call(sync.triggerSync, { params: { kbid, config_id: configId }, body: { full_sync: full } });
  for (let i = 0; i < 400; i++) {
    const j = await d.client.call(sync.getJob, { params: { kbid, job_id: job.id } });
    if (j.status !== "pending" && j.status !== "running") {
      await waitIdle(d.client, kbid);
      return j;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("sync did not finish");
}

beforeAll(async () => {
  s3 = await startLocalS3(["docs"]);
  client = s3Client(s3.access);
  sts = await startLocalSts(
    DAEMON_AWS,
    { accessKeyId: s3.access.accessKeyId, secretAccessKey: s3.access.secretAccessKey },
    trusted,
  );
  d = await startTestDaemon({
    keepHome: false,
    env: {
      KBOX_STS_URL: sts.url,
      AWS_ACCESS_KEY_ID: DAEMON_AWS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: DAEMON_AWS.secretAccessKey,
      AWS_REGION: DAEMON_AWS.region,
    },
  });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "cloud" } })).uuid;
  await put("team/notes/tides.md", "# Tides\n\nThe tide tables for the harbour.");
  await put("team/notes/old.md", "# Old\n\nAn old memo about lanterns.");
  await put("team/report.txt", "The quarterly report about anchors.");
  await put("team/skip.log", "a log file the filter leaves out");
  await put("other/outside.txt", "not under the prefix");
});
afterAll(async () => {
  await d?.stop();
  await s3?.close();
  await sts?.close();
});

describe("object-store external connection", () => {
  it("refuses OAuth providers without an OAuth application, certificates without credentials, and an object-store connection without credentials", async () => {
    const create = (provider: string, credentials?: unknown) =>
      d.client.call(sync.createConnection, {
        params: { kbid },
        body: { provider: provider as sync.Provider, credentials: credentials as any },
      });
    // No KBOX_*_CLIENT_ID here: the OAuth providers say which settings are missing (sync-cloud.test.ts has the flows).
    for (const p of ["drive_oauth", "directory_oauth", "fileshare_oauth", "filebox_oauth"]) {
      const e = await create(p).catch((x) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(e.status).toBe(400);
      expect(JSON.stringify(e.detail)).toMatch(/no OAuth application .*KBOX_[A-Z]+_CLIENT_ID/);
    }
    expect(await status(create("directory_certificate_credentials"))).toBe(422);
    expect(await status(create("object_store_assume_role"))).toBe(422);
    expect(await status(create("object_store_assume_role", { access_key_id: "x" }))).toBe(422);
  });

  it("creates a connection with sealed credentials, browses prefixes and refuses bucket listing", async () => {
    const conn = await d.client.call(sync.createConnection, {
      params: { kbid },
      body: {
        provider: "object_store_assume_role",
        credentials: {
          endpoint: s3.endpoint,
          region: "us-east-1",
          access_key_id: s3.access.accessKeyId,
          secret_access_key: s3.access.secretAccessKey,
        },
      },
    });
    connId = conn.id;
    expect(JSON.stringify(conn)).not.toContain("S3RVER");
    expect(JSON.stringify(await d.client.call(sync.getConnection, { params: { kbid, connection_id: connId } }))).not.toContain(
      "S3RVER",
    );
    // The secret is not in the box's files in clear.
    const stored = await storedText(d.home, kbid, "sync_connections");
    expect(stored.docs).toContain("sealed_credentials");
    expect(stored.docs).not.toContain("S3RVER");
    expect(stored.bytes).not.toContain("S3RVER");

    const top = await d.client.call(sync.browseStorage, { params: { kbid, connection_id: connId }, query: { drive_id: "docs" } });
    expect(top.folders?.map((f) => f.path).sort()).toEqual(["other/", "team/"]);
    const team = await d.client.call(sync.browseStorage, {
      params: { kbid, connection_id: connId },
      query: { drive_id: "docs", path: "team" },
    });
    expect(team.folders?.map((f) => f.path)).toEqual(["team/notes/"]);
    expect(team.drives?.[0]).toMatchObject({ id: "docs", drive_type: "bucket" });
    expect(await status(d.client.call(sync.browseStorage, { params: { kbid, connection_id: connId }, query: {} }))).toBe(400);
    expect(
      await status(
        d.client.call(sync.browseStorage, {
          params: { kbid, connection_id: connId },
          query: { drive_id: "docs", path: "a", folder_id: "b" },
        }),
      ),
    ).toBe(400);
    const info = await d.client.call(sync.assumeRoleInfo, { params: { kbid } });
    expect(info.external_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("syncs a bucket prefix like a folder: filters, labels, change by ETag, move, delete, stats and logs", async () => {
    const config = await d.client.call(sync.addConfig, {
      params: { kbid },
      body: {
        name: "team bucket",
        external_connection_id: connId,
        drive_id: "docs",
        folder_id: "team/",
        file_filter: { mode: "exclude", extensions: ["log"] },
        labels: [{ labelset: "source", label: "cloud" }],
      },
    });
    configId = config.id;
    // The "created" job runs by itself: wait for it; a second pass finds nothing changed.
    for (let i = 0; i < 400; i++) {
      const jobs = await d.client.call(sync.listJobs, { params: { kbid, config_id: configId }, query: { limit: 5 } });
      if (jobs.items.length && jobs.items.every((j) => j.status !== "pending" && j.status !== "running")) {
        expect(jobs.items[0].stats).toMatchObject({ scanned: 3, added: 3, failed: 0 });
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    let job = await run();
    let files = await synced();
    expect([...files.keys()].sort()).toEqual(["/notes/old.md", "/notes/tides.md", "/report.txt"]);
    expect(files.get("/report.txt")?.labels).toEqual(["cloud"]);
    const r = await d.client.call(find.find, { params: { kbid }, body: { query: "harbour tide", features: ["keyword"] } });
    expect(Object.keys(r.resources)).toEqual([files.get("/notes/tides.md")?.id]);
    expect(job.stats).toMatchObject({ scanned: 3, unchanged: 3, failed: 0 });

    const before = files;
    await put("team/report.txt", "The quarterly report about anchors and chains, revised.");
    await client.send(
      new CopyObjectCommand({ Bucket: "docs", CopySource: "docs/team/notes/old.md", Key: "team/archive/old.md" }),
    );
    await del("team/notes/old.md");
    await put("team/new.md", "# New\n\nA new page about buoys.");
    await del("team/notes/tides.md");
    job = await run();
    expect(job.status).toBe("completed");
    expect(job.stats).toMatchObject({ added: 1, updated: 1, moved: 1, deleted: 1, failed: 0 });
    files = await synced();
    expect([...files.keys()].sort()).toEqual(["/archive/old.md", "/new.md", "/report.txt"]);
    expect(files.get("/archive/old.md")?.id).toBe(before.get("/notes/old.md")?.id);
    expect(files.get("/report.txt")?.etag).not.toBe(before.get("/report.txt")?.etag);
    const chains = await d.client.call(find.find, { params: { kbid }, body: { query: "chains revised", features: ["keyword"] } });
    expect(Object.keys(chains.resources)).toEqual([files.get("/report.txt")?.id]);
    const logs = await d.client.call(sync.jobLogs, { params: { kbid, job_id: job.id }, query: { limit: 50 } });
    const messages = logs.items.map((l) => l.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "moved notes/old.md -> archive/old.md",
        "deleted notes/tides.md",
        "added new.md",
        "updated report.txt",
      ]),
    );
  });

  it("honours modified_time_range and validates resources", async () => {
    const v = await d.client.call(sync.validateResources, {
      params: { kbid, config_id: configId },
      body: { credentials: "", resources: [{ file_id: "report.txt" }, { file_id: "skip.log" }, { file_id: "nope.md" }] },
    });
    expect(v.valid_resources).toEqual([{ file_id: "report.txt" }]);
    expect(v.invalid_resources.map((i) => i.resource.file_id)).toEqual(["skip.log", "nope.md"]);
    await d.client.call(sync.updateConfig, {
      params: { kbid, config_id: configId },
      body: { modified_time_range: { from: new Date(Date.now() + 3600_000).toISOString() } },
    });
    const job = await run();
    // Every object is older than the range: the config no longer selects them, so they leave the box.
    expect(job.stats).toMatchObject({ scanned: 0, deleted: 3 });
    expect((await synced()).size).toBe(0);
  });

  it("assumes a role through STS (signed with the daemon's own credentials) when a connection gives role_arn only", async () => {
    const info = await d.client.call(sync.assumeRoleInfo, { params: { kbid } });
    trusted.externalId = info.external_id;
    const role = (role_arn: string) =>
      d.client.call(sync.createConnection, {
        params: { kbid },
        body: { provider: "object_store_assume_role", credentials: { role_arn, endpoint: s3.endpoint, region: "us-east-1" } },
      }) as Promise<sync.ExternalConnection>;
    const conn = await role(ROLE);
    const top = await d.client.call(sync.browseStorage, {
      params: { kbid, connection_id: conn.id },
      query: { drive_id: "docs" },
    });
    expect(top.folders?.map((f) => f.path).sort()).toEqual(["other/", "team/"]);
    expect(sts.calls).toEqual([{ roleArn: ROLE, externalId: info.external_id, sessionName: "kbox-sync" }]);
    // The temporary credentials are kept until shortly before they expire: no second call.
    await d.client.call(sync.browseStorage, {
      params: { kbid, connection_id: conn.id },
      query: { drive_id: "docs", path: "team" },
    });
    expect(sts.calls).toHaveLength(1);
    const other = await role("arn:aws:iam::123456789012:role/not-trusted");
    const e = await d.client
      .call(sync.browseStorage, { params: { kbid, connection_id: other.id }, query: { drive_id: "docs" } })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(403);
    expect(JSON.stringify(e.detail)).toMatch(/AssumeRole .*not authorized/);
  });
});
