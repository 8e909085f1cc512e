import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bucket, s3Client } from "../../daemon/store/bucket.js";
import * as bk from "../../src/api/backups.js";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import { startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { type LocalS3, startLocalS3 } from "../helpers/s3.js";
import { waitIdle } from "./ingest-helpers.js";

const V1 = "/api/v1";
const acct = { account_id: "local" };
const TEXT = "Lighthouses guide the night boats past the reef.\n\nThe keeper trims the wick at dusk.";

let s3: LocalS3;
let bucket: Bucket;
let home: string;
let d: TestDaemon;

const keys = async (prefix: string) => {
  const out: string[] = [];
  for await (const o of bucket.list(prefix)) out.push(o.key);
  return out;
};

async function start(): Promise<TestDaemon> {
  return startTestDaemon({
    home,
    keepHome: true,
    env: { ...s3.env, KBOX_DATA_URI: "s3://kbox/team/data", KBOX_STORE_REFRESH: "200ms" },
  });
}

beforeAll(async () => {
  s3 = await startLocalS3(["kbox"]);
  bucket = new Bucket(s3Client(s3.access), "kbox");
  home = tempHome("kbox-s3-");
  d = await start();
});
afterAll(async () => {
  await d?.stop();
  await s3?.close();
  rmSync(home, { recursive: true, force: true });
});

async function keywordIds(kbid: string, query: string): Promise<string[]> {
  const r = await d.client.call(find.find, { params: { kbid }, body: { query, features: ["keyword"] } });
  return Object.keys(r.resources);
}

describe("a daemon whose data is on object storage", () => {
  let kbid: string;
  let rid: string;

  it("keeps tables and blobs under the URI, finds, and serves files from there", async () => {
    kbid = (await d.client.call(kbs.createKb, { body: { slug: "s3box", title: "On S3" } })).uuid;
    const up = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, TEXT, {
      "content-type": "text/plain",
      "x-filename": "light.txt",
    });
    expect(up.status).toBe(201);
    rid = (up.json as { uuid: string }).uuid;
    await waitIdle(d.client, kbid);
    expect(await keywordIds(kbid, "lighthouses reef")).toEqual([rid]);

    const all = await keys("team/data/");
    expect(all.some((k) => k.startsWith("team/data/meta/kbs.lance/_versions/"))).toBe(true);
    expect(all.some((k) => k.startsWith(`team/data/kbs/${kbid}/lance/paragraphs.lance/data/`))).toBe(true);
    const blobs = all.filter((k) => k.startsWith(`team/data/kbs/${kbid}/blobs/r/${rid}/f/`));
    expect(blobs).toHaveLength(1);
    expect((await bucket.get(blobs[0]))?.toString()).toBe(TEXT);
    // Nothing of the tables is in the local data dir (only caches and staging).
    expect(await import("node:fs").then((fs) => fs.existsSync(join(home, "data", "meta")))).toBe(false);

    // With the local cache emptied, the file and the extracted text come back from the bucket.
    await d.stop();
    rmSync(join(home, "data", "kbs"), { recursive: true, force: true });
    d = await start();
    const dl = await rawCall(d.client, "GET", `${V1}/kb/${kbid}/resource/${rid}/file/file/download/field`);
    expect(dl.status).toBe(200);
    expect(dl.text).toBe(TEXT);
    const res = await rawCall(d.client, "GET", `${V1}/kb/${kbid}/resource/${rid}?show=extracted&extracted=text`);
    expect(JSON.stringify(res.json)).toContain("keeper trims the wick");
    expect(await keywordIds(kbid, "keeper wick")).toEqual([rid]);
  });

  it("backs up and restores a box on object storage", async () => {
    const { id } = await d.client.call(bk.createBackup, { params: acct, body: { kb_id: kbid } });
    let b = await d.client.call(bk.getBackup, { params: { ...acct, backup_id: id } });
    for (let i = 0; i < 400 && b.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      b = await d.client.call(bk.getBackup, { params: { ...acct, backup_id: id } });
    }
    expect(b.status).toBe("finished");
    const restored = await d.client.call(bk.restoreBackup, {
      params: { ...acct, backup_id: id },
      body: { slug: "s3copy", title: "Copy" },
    });
    const copy = restored.id;
    expect((await keys(`team/data/kbs/${copy}/lance/`)).length).toBeGreaterThan(0);
    expect(await keywordIds(copy, "lighthouses")).toEqual([rid]);
    const dl = await rawCall(d.client, "GET", `${V1}/kb/${copy}/resource/${rid}/file/file/download/field`);
    expect(dl.text).toBe(TEXT);
  });

  it("deletes every object of a deleted box", async () => {
    await d.client.call(kbs.deleteKb, { params: { kbid } });
    expect(await keys(`team/data/kbs/${kbid}/`)).toEqual([]);
  });
});
