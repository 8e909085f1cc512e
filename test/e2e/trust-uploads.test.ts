/**
 * Issue 15, faults 6 and 11 (uploads): TUS PATCHes must be TUS, a chunk past Upload-Length is refused
 * without wedging the upload, and every upload is bounded by KBOX_MAX_UPLOAD_MB; a KB id in upper case
 * is the same box for its own key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accounts from "../../src/api/accounts.js";
import * as kbs from "../../src/api/kbs.js";
import { KboxClient } from "../../src/client/client.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

const V1 = "/api/v1";
const TUS_PATCH = { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream" };
const MB = 1024 ** 2;
let d: TestDaemon;
let kbid: string;

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0", env: { ...OFFLINE, KBOX_MAX_UPLOAD_MB: "1" } });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "uploads" } })).uuid;
});
afterAll(async () => {
  await d?.stop();
});

async function start(length?: number): Promise<string> {
  const h: Record<string, string> = { "tus-resumable": "1.0.0" };
  if (length === undefined) h["upload-defer-length"] = "1";
  else h["upload-length"] = String(length);
  const c = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/tusupload`, undefined, h);
  expect(c.status).toBe(201);
  return V1 + (c.headers.location as string);
}

const offsetOf = async (loc: string) => (await rawCall(d.client, "HEAD", loc)).headers["upload-offset"];

describe("TUS", () => {
  it("refuses a PATCH of another TUS version (412) or of a type that is not the upload's bytes (415)", async () => {
    const loc = await start(4);
    const old = { ...TUS_PATCH, "tus-resumable": "0.2.2", "upload-offset": "0" };
    expect((await rawCall(d.client, "PATCH", loc, Buffer.from("abcd"), old)).status).toBe(412);
    for (const type of ["application/json", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]) {
      const typed = await rawCall(d.client, "PATCH", loc, Buffer.from("abcd"), {
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": type,
      });
      expect(typed.status, type).toBe(415);
    }
    expect(await offsetOf(loc)).toBe("0");
  });

  it("refuses a chunk past Upload-Length whole (413) and the upload goes on from where it was", async () => {
    const loc = await start(10);
    const first = await rawCall(d.client, "PATCH", loc, Buffer.from("01234"), { ...TUS_PATCH, "upload-offset": "0" });
    expect(first.headers["upload-offset"]).toBe("5");
    const over = await rawCall(d.client, "PATCH", loc, Buffer.from("56789-and-more"), { ...TUS_PATCH, "upload-offset": "5" });
    expect(over.status).toBe(413);
    expect(over.text).toContain("Upload-Length");
    expect(await offsetOf(loc)).toBe("5");
    const rest = await rawCall(d.client, "PATCH", loc, Buffer.from("56789"), { ...TUS_PATCH, "upload-offset": "5" });
    expect(rest.status).toBe(200);
    expect(rest.headers["tus-upload-finished"]).toBe("1");
  });

  it("bounds uploads by KBOX_MAX_UPLOAD_MB: a declared, a deferred and a direct upload over it get 413", async () => {
    const declared = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/tusupload`, undefined, {
      "tus-resumable": "1.0.0",
      "upload-length": String(2 * MB),
    });
    expect(declared.status).toBe(413);
    expect(declared.text).toContain("KBOX_MAX_UPLOAD_MB");
    const deferred = await start();
    const big = Buffer.alloc(MB + 10, 97);
    const p = await rawCall(d.client, "PATCH", deferred, big, { ...TUS_PATCH, "upload-offset": "0" });
    expect(p.status).toBe(413);
    expect(await offsetOf(deferred)).toBe("0");
    const direct = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, big, { "content-type": "text/plain" });
    expect(direct.status).toBe(413);
    const small = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, Buffer.from("small"), {
      "content-type": "text/plain",
    });
    expect(small.status).toBe(201);
  });
});

describe("KB ids", () => {
  it("a KB-scoped key reaches its box by an upper-case id too, and no other box", async () => {
    const scope = { account_id: "local", kb_id: kbid };
    const { id } = await d.client.call(accounts.createServiceAccount, { params: scope, body: { title: "r", role: "SMEMBER" } });
    const expires = new Date(Date.now() + 86400e3).toISOString();
    const k = await d.client.call(accounts.createServiceAccountKey, { params: { ...scope, sa_id: id }, body: { expires } });
    const tcp = new KboxClient({ kind: "http", baseUrl: d.url!, apiKey: k.token });
    expect((await rawCall(tcp, "GET", `${V1}/kb/${kbid.toUpperCase()}/resources`)).status).toBe(200);
    expect((await rawCall(tcp, "GET", `${V1}/kb/${kbid}/resources`)).status).toBe(200);
    const other = (await d.client.call(kbs.createKb, { body: { slug: "other" } })).uuid;
    expect((await rawCall(tcp, "GET", `${V1}/kb/${other.toUpperCase()}/resources`)).status).toBe(403);
  });
});
