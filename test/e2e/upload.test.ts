import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { OFFLINE, removeHome, startTestDaemon, type TestDaemon, tempHome } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";
import { waitIdle } from "./ingest-helpers.js";

/** The headers every TUS PATCH carries. */
const TUS_PATCH = { "tus-resumable": "1.0.0", "content-type": "application/offset+octet-stream" };

let d: TestDaemon;
let kbid: string;
const V1 = "/api/v1";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const TEXT = Buffer.from("Uploaded notes about the harbour.\n\nA second paragraph about boats and sails.\n");

async function fieldStatus(rid: string, field = "file") {
  const r = (await d.client.call(api.getResource.byId, {
    params: { kbid, rid },
    query: { show: ["basic", "values", "errors", "extracted"] },
  })) as any;
  return { res: r, entry: r.data?.files?.[field] };
}

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "uploads" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

describe("direct upload", () => {
  it("creates a resource from a raw body and processes it", async () => {
    const md5 = createHash("md5").update(TEXT).digest("hex");
    const r = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, TEXT, {
      "content-type": "text/plain",
      "x-filename": encodeURIComponent("notes é.txt"),
      "x-md5": md5,
      "x-language": "en",
    });
    expect(r.status).toBe(201);
    const { uuid, field_id, seqid } = r.json as { uuid: string; field_id: string; seqid: number };
    expect(field_id).toBe("file");
    expect(seqid).toBeGreaterThan(0);
    await waitIdle(d.client, kbid);
    const { res, entry } = await fieldStatus(uuid);
    expect(entry.status).toBe("PROCESSED");
    expect(res.title).toBe("notes é.txt");
    expect(entry.value.file).toMatchObject({ filename: "notes é.txt", content_type: "text/plain", size: TEXT.length, md5 });
    expect(entry.extracted.text.text).toContain("boats and sails");

    const dup = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, TEXT, { "content-type": "text/plain", "x-md5": md5 });
    expect(dup.status).toBe(409);
  });

  it("uploads into a field by id and by slug; base64 filenames are decoded", async () => {
    const { uuid } = await d.client.call(api.createResource, { params: { kbid }, body: { slug: "target", title: "Target" } });
    const byId = await rawCall(
      d.client,
      "POST",
      `${V1}/kb/${kbid}/resource/${uuid}/file/doc/upload`,
      Buffer.from("Field by id text."),
      {
        "content-type": "text/plain",
        "x-filename": b64("by-id.txt"),
      },
    );
    expect(byId.status).toBe(201);
    expect(byId.json).toMatchObject({ uuid, field_id: "doc" });
    const bySlug = await rawCall(
      d.client,
      "POST",
      `${V1}/kb/${kbid}/slug/target/file/other/upload`,
      Buffer.from("Field by slug text."),
      {
        "content-type": "text/plain",
      },
    );
    expect(bySlug.status).toBe(201);
    await waitIdle(d.client, kbid);
    expect((await fieldStatus(uuid, "doc")).entry.value.file.filename).toBe("by-id.txt");
    expect((await fieldStatus(uuid, "other")).entry.status).toBe("PROCESSED");
    const missing = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/slug/nope/file/x/upload`, Buffer.from("x"), {
      "content-type": "text/plain",
    });
    expect(missing.status).toBe(404);
  });

  it("refuses an invalid content type with 415", async () => {
    const r = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, Buffer.from("x"), { "content-type": "not a type" });
    expect(r.status).toBe(415);
  });
});

describe("TUS", () => {
  const create = (headers: Record<string, string>, body?: unknown, path = `${V1}/kb/${kbid}/tusupload`) =>
    rawCall(d.client, "POST", path, body, headers);

  it("uploads in chunks with a create payload, HEAD reports the offset", async () => {
    const data = Buffer.concat([TEXT, Buffer.from("Third paragraph added for TUS.\n")]);
    const c = await create(
      {
        "tus-resumable": "1.0.0",
        "upload-length": String(data.length),
        "upload-metadata": `filename ${b64(encodeURIComponent("tus notes.txt"))},content_type ${b64("text/plain")},language ${b64("en")}`,
      },
      { title: "TUS notes", usermetadata: { classifications: [{ labelset: "src", label: "tus" }] } },
    );
    expect(c.status).toBe(201);
    const location = c.headers.location as string;
    expect(location).toMatch(new RegExp(`^/kb/${kbid}/tusupload/[0-9a-f]{32}$`));
    const half = 20;
    const p1 = await rawCall(d.client, "PATCH", V1 + location, data.subarray(0, half), { ...TUS_PATCH, "upload-offset": "0" });
    expect(p1.status).toBe(200);
    expect(p1.headers["upload-offset"]).toBe(String(half));
    expect(p1.headers["tus-upload-finished"]).toBeUndefined();
    const head = await rawCall(d.client, "HEAD", V1 + location);
    expect(head.status).toBe(200);
    expect(head.headers["upload-offset"]).toBe(String(half));
    expect(head.headers["upload-length"]).toBe(String(data.length));
    const wrong = await rawCall(d.client, "PATCH", V1 + location, data.subarray(half), { ...TUS_PATCH, "upload-offset": "3" });
    expect(wrong.status).toBe(412);
    // A PATCH sends the upload's bytes: TUS's type, raw bytes or the file's own type; nothing else.
    const json = await rawCall(d.client, "PATCH", V1 + location, data.subarray(half), {
      "upload-offset": String(half),
      "content-type": "application/json",
    });
    expect(json.status).toBe(415);
    const version = await rawCall(d.client, "PATCH", V1 + location, data.subarray(half), {
      ...TUS_PATCH,
      "tus-resumable": "0.2.2",
      "upload-offset": String(half),
    });
    expect(version.status).toBe(412);
    const p2 = await rawCall(d.client, "PATCH", V1 + location, data.subarray(half), {
      "upload-offset": String(half),
      "content-type": "text/plain",
    });
    expect(p2.status).toBe(200);
    expect(p2.headers["tus-upload-finished"]).toBe("1");
    const rid = String(p2.headers["ndb-resource"]).split("/").pop() as string;
    expect(p2.headers["ndb-resource"]).toBe(`/kb/${kbid}/resources/${rid}`);
    expect(p2.headers["ndb-field"]).toBe(`/kb/${kbid}/resources/${rid}/field/file`);
    expect(Number(p2.headers["ndb-seq"])).toBeGreaterThan(0);
    await waitIdle(d.client, kbid);
    const { res, entry } = await fieldStatus(rid);
    expect(res.title).toBe("TUS notes");
    expect(res.usermetadata.classifications).toEqual([{ labelset: "src", label: "tus" }]);
    expect(entry.value.file.filename).toBe("tus notes.txt");
    expect(entry.status).toBe("PROCESSED");
    expect(entry.extracted.text.text).toContain("Third paragraph added for TUS.");
  });

  it("supports deferred length and uploads into a resource field", async () => {
    const { uuid } = await d.client.call(api.createResource, { params: { kbid }, body: { title: "Deferred" } });
    const c = await create(
      { "tus-resumable": "1.0.0", "upload-defer-length": "1" },
      undefined,
      `${V1}/kb/${kbid}/resource/${uuid}/file/late/tusupload`,
    );
    expect(c.status).toBe(201);
    const loc = c.headers.location as string;
    expect(loc.startsWith(`/kb/${kbid}/resource/${uuid}/file/late/tusupload/`)).toBe(true);
    expect((await rawCall(d.client, "HEAD", V1 + loc)).headers["upload-defer-length"]).toBe("1");
    const body = Buffer.from("Deferred length content here.");
    const p = await rawCall(d.client, "PATCH", V1 + loc, body, {
      ...TUS_PATCH,
      "upload-offset": "0",
      "upload-length": String(body.length),
    });
    expect(p.headers["tus-upload-finished"]).toBe("1");
    await waitIdle(d.client, kbid);
    expect((await fieldStatus(uuid, "late")).entry.status).toBe("PROCESSED");
  });

  it("answers 412 without Tus-Resumable, 404 for an unknown upload, 409 for a duplicate md5, 415 for a bad type", async () => {
    expect((await create({ "upload-length": "3" })).status).toBe(412);
    const unknown = `${V1}/kb/${kbid}/tusupload/${"0".repeat(32)}`;
    expect((await rawCall(d.client, "HEAD", unknown)).status).toBe(404);
    expect((await rawCall(d.client, "PATCH", unknown, Buffer.from("x"), { ...TUS_PATCH, "upload-offset": "0" })).status).toBe(
      404,
    );
    const md5 = createHash("md5").update(TEXT).digest("hex");
    expect((await create({ "tus-resumable": "1.0.0", "upload-length": "3", "upload-metadata": `md5 ${b64(md5)}` })).status).toBe(
      409,
    );
    expect(
      (await create({ "tus-resumable": "1.0.0", "upload-length": "3", "upload-metadata": `content_type ${b64("bad type")}` }))
        .status,
    ).toBe(415);
    expect((await create({ "tus-resumable": "1.0.0" })).status).toBe(400);
    const opt = await rawCall(d.client, "OPTIONS", `${V1}/kb/${kbid}/tusupload`);
    expect(opt.headers["tus-extension"]).toContain("creation-defer-length");
  });

  it("keeps a partial upload across a daemon restart", async () => {
    const home = tempHome();
    let d2 = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
    try {
      const kb = (await d2.client.call(kbs.createKb, { body: { slug: "resume" } })).uuid;
      const data = Buffer.from("Resumable upload content survives restarts of the daemon.");
      const c = await rawCall(d2.client, "POST", `${V1}/kb/${kb}/tusupload`, undefined, {
        "tus-resumable": "1.0.0",
        "upload-length": String(data.length),
      });
      const loc = V1 + (c.headers.location as string);
      await rawCall(d2.client, "PATCH", loc, data.subarray(0, 10), { ...TUS_PATCH, "upload-offset": "0" });
      await d2.stop();
      d2 = await startTestDaemon({ home, keepHome: true, env: OFFLINE });
      expect((await rawCall(d2.client, "HEAD", loc)).headers["upload-offset"]).toBe("10");
      const p = await rawCall(d2.client, "PATCH", loc, data.subarray(10), { ...TUS_PATCH, "upload-offset": "10" });
      expect(p.headers["tus-upload-finished"]).toBe("1");
      const rid = String(p.headers["ndb-resource"]).split("/").pop() as string;
      const dl = await rawCall(d2.client, "GET", `${V1}/kb/${kb}/resource/${rid}/file/file/download/field`);
      expect(dl.text).toBe(data.toString());
    } finally {
      await d2.stop();
      removeHome(home);
    }
  });
});

describe("download", () => {
  it("streams the stored file with Range and a filename", async () => {
    const data = Buffer.from("0123456789abcdefghij");
    const up = await rawCall(d.client, "POST", `${V1}/kb/${kbid}/upload`, data, {
      "content-type": "text/plain",
      "x-filename": "digits.txt",
    });
    const { uuid } = up.json as { uuid: string };
    const url = `${V1}/kb/${kbid}/resource/${uuid}/file/file/download/field`;
    const full = await rawCall(d.client, "GET", url);
    expect(full.status).toBe(200);
    expect(full.text).toBe(data.toString());
    expect(full.headers["content-disposition"]).toContain('filename="digits.txt"');
    expect(full.headers["accept-ranges"]).toBe("bytes");
    const part = await rawCall(d.client, "GET", url, undefined, { range: "bytes=5-9" });
    expect(part.status).toBe(206);
    expect(part.text).toBe("56789");
    expect(part.headers["content-range"]).toBe(`bytes 5-9/${data.length}`);
    const tail = await rawCall(d.client, "GET", url, undefined, { range: "bytes=-3" });
    expect(tail.text).toBe("hij");
    const bad = await rawCall(d.client, "GET", url, undefined, { range: "bytes=100-" });
    expect(bad.status).toBe(416);
    expect(bad.headers["content-range"]).toBe(`bytes */${data.length}`);
    const none = await rawCall(d.client, "GET", `${V1}/kb/${kbid}/resource/${uuid}/file/nope/download/field`);
    expect(none.status).toBe(404);
  });
});
