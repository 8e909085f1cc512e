/**
 * Issue 15, fault 7: a full disk answers 507 and breaks nothing. The knowledge box's blob folder is
 * put on a 1 MiB tmpfs (a real full file system: needs root to mount, else the test is skipped), so
 * writes of file bytes hit ENOSPC while the tables stay writable.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as processing from "../../src/api/processing.js";
import * as resources from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { seedKb } from "../helpers/seed-kb.js";

let d: TestDaemon;
let kbid: string;
let blobs = "";
let mounted = false;

function tryMount(dir: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await seedKb(d, "full", [{ slug: "n", title: "Notes", body: "Harbour cranes lift containers at dawn." }])).kbid;
  blobs = join((await d.daemon.services.kbs.open(kbid)).store.dir, "blobs");
  mkdirSync(blobs, { recursive: true });
  mounted = tryMount(blobs);
});
afterAll(async () => {
  if (mounted) execFileSync("umount", ["-l", blobs], { stdio: "ignore" });
  await d?.stop();
});

const upload = (bytes: number) =>
  rawCall(d.client, "POST", `/api/v1/kb/${kbid}/upload`, Buffer.alloc(bytes, 97), {
    "content-type": "text/plain",
    "x-filename": "big.txt",
  });

describe("a full disk", () => {
  it("answers 507 to writes, keeps serving reads and takes writes again once space returns", async (ctx) => {
    if (!mounted) ctx.skip();
    const before = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resources`)).json as { resources: unknown[] };
    for (let i = 0; i < 3; i++) {
      const r = await upload(2 * 1024 ** 2);
      expect(r.status).toBe(507);
      expect(r.text).toContain("disk holding the daemon's data is full");
    }
    const tus = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/tusupload`, undefined, {
      "tus-resumable": "1.0.0",
      "upload-length": String(2 * 1024 ** 2),
    });
    if (tus.status === 201) {
      const loc = `/api/v1${tus.headers.location}`;
      const p = await rawCall(d.client, "PATCH", loc, Buffer.alloc(2 * 1024 ** 2, 98), {
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
      });
      expect(p.status).toBe(507);
    } else expect(tus.status).toBe(507);
    // Still alive and readable; no half-made resource was left behind.
    const after = (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resources`)).json as { resources: unknown[] };
    expect(after.resources.length).toBe(before.resources.length);
    const found = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "harbour cranes", features: ["keyword"] });
    expect(found.status).toBe(200);
    expect(found.text).toContain("Harbour");
    expect((await d.client.call(kbs.getKbBySlug, { params: { slug: "full" } })).uuid).toBe(kbid);
    // The failed writes left nothing behind: a small file fits.
    expect((await upload(100 * 1024)).status).toBe(201);
  });

  it("ingestion waits for room instead of failing, and resumes once space is freed", async (ctx) => {
    if (!mounted) ctx.skip();
    // Fill what is left of the blob folder's disk: the extraction output of a new text cannot be written.
    // (The tmpfs hides the packs folder the box had before it was mounted: make it on the tmpfs.)
    mkdirSync(join(blobs, "packs"), { recursive: true });
    const filler = join(blobs, "filler");
    try {
      writeFileSync(filler, Buffer.alloc(2 * 1024 ** 2, 99));
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe("ENOSPC");
    }
    const rid = (
      await d.client.call(resources.createResource, {
        params: { kbid },
        body: { title: "Ferries", texts: { body: { body: "Night ferries cross the sound to the islands." } } },
      })
    ).uuid;
    const status = async () =>
      (await d.client.call(resources.getResource.byId, { params: { kbid, rid }, query: { show: ["basic"] } })).metadata?.status;
    // Three attempts used to end it as ERROR within a second; it waits instead, as a retry.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await status()).toBe("PENDING");
    // Scheduled for another attempt, not failed.
    const waiting = await d.client.call(processing.processingStatus, { params: { kbid }, query: { limit: 10 } });
    const item = waiting.results.find((r) => r.resource_id === rid);
    expect([item?.scheduled, item?.failed]).toEqual([true, false]);
    rmSync(filler, { force: true });
    // The next attempt (at most 30 s later) finds room: processed and findable.
    for (const until = Date.now() + 45_000; Date.now() < until && (await status()) === "PENDING"; )
      await new Promise((r) => setTimeout(r, 250));
    expect(await status()).toBe("PROCESSED");
    const found = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "night ferries", features: ["keyword"] });
    expect(found.text).toContain(rid);
  }, 90_000);
});
