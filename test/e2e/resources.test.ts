import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import * as api from "../../src/api/resources.js";
import { ApiError } from "../../src/client/errors.js";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

let d: TestDaemon;
let kbid: string;

beforeAll(async () => {
  d = await startTestDaemon();
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "res" } })).uuid;
});
afterAll(async () => {
  await d.stop();
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

const PDF = Buffer.from("%PDF-1.4 pretend this is a document\n");

const FULL: api.CreateResource = {
  slug: "full-res",
  title: "Full resource",
  summary: "All the kinds",
  icon: "application/pdf",
  thumbnail: "thumb.png",
  metadata: { language: "en", metadata: { k: "v" } },
  usermetadata: {
    classifications: [{ labelset: "topic", label: "planning" }],
    relations: [{ relation: "ABOUT", label: "about", to: { value: "Paris", type: "entity", group: "PLACE" } }],
  },
  origin: {
    path: "/docs/plans/q3.pdf",
    tags: ["alpha", "beta"],
    metadata: { team: "core" },
    sync_metadata: { file_id: "f1", auth_provider: "local", content_hash: "abc" },
    url: "https://example.com/q3",
  },
  extra: { metadata: { anything: { nested: [1, 2] } } },
  hidden: false,
  security: { access_groups: ["team-a", "team-b"] },
  texts: { body: { body: "We ship on Friday.", format: "MARKDOWN" } },
  files: {
    doc: { language: "en", file: { filename: "q3.pdf", content_type: "application/pdf", payload: PDF.toString("base64") } },
  },
  links: { site: { uri: "https://example.com/page", css_selector: "main", headers: { "x-a": "1" } } },
  conversations: {
    chat: {
      messages: [
        { ident: "m1", who: "alice", to: ["bob"], type: "QUESTION", content: { text: "When do we ship?", format: "PLAIN" } },
        { ident: "m2", who: "bob", to: ["alice"], type: "ANSWER", content: { text: "Friday.", format: "PLAIN" } },
      ],
    },
  },
  key_values: { kv: { data: { color: "blue", size: "L" } } },
};

describe("resources and fields end to end", () => {
  let rid: string;
  let createSeq: number;

  it("creates a resource with every field kind (201 uuid, elapsed, seqid)", async () => {
    const r = await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/resources`, FULL);
    expect(r.status).toBe(201);
    const body = r.json as { uuid: string; elapsed: number; seqid: number };
    expect(body.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof body.elapsed).toBe("number");
    expect(Number.isInteger(body.seqid)).toBe(true);
    rid = body.uuid;
    createSeq = body.seqid;
  });

  it("serves show=basic by default, with status PENDING and unset members omitted", async () => {
    const r = await d.client.call(api.getResource.byId, { params: { kbid, rid } });
    expect(r).toMatchObject({
      id: rid,
      slug: "full-res",
      title: "Full resource",
      summary: "All the kinds",
      icon: "application/pdf",
      thumbnail: "thumb.png",
      metadata: { status: expect.stringMatching(/^(PENDING|PROCESSED)$/), language: "en", metadata: { k: "v" } },
      usermetadata: { classifications: [{ labelset: "topic", label: "planning" }] },
      last_seqid: createSeq,
      hidden: false,
    });
    expect(Date.parse(r.created as string)).not.toBeNaN();
    expect(Date.parse(r.modified as string)).not.toBeNaN();
    for (const absent of ["origin", "extra", "security", "data", "relations"]) expect(r).not.toHaveProperty(absent);
    for (const v of Object.values(r)) expect(v).not.toBeNull();
  });

  it("serves origin, extra, relations and security only when asked", async () => {
    const r = await d.client.call(api.getResource.byId, {
      params: { kbid, rid },
      query: { show: ["origin", "extra", "relations", "security"] },
    });
    expect(r).not.toHaveProperty("title");
    expect(r.origin).toEqual(FULL.origin);
    expect(r.extra).toEqual(FULL.extra);
    expect(r.relations).toEqual(FULL.usermetadata?.relations);
    expect(r.security).toEqual({ access_groups: ["team-a", "team-b"] });
  });

  it("serves values of all six kinds, and field_type restricts them", async () => {
    const r = await d.client.call(api.getResource.bySlug, { params: { kbid, rslug: "full-res" }, query: { show: ["values"] } });
    const data = r.data as Record<string, Record<string, { value: unknown }>>;
    expect(Object.keys(data).sort()).toEqual(["conversations", "files", "generics", "key_values", "links", "texts"]);
    expect(data.texts.body.value).toMatchObject({ body: "We ship on Friday.", format: "MARKDOWN" });
    expect(data.generics.title.value).toBe("Full resource");
    expect(data.generics.summary.value).toBe("All the kinds");
    expect(data.links.site.value).toMatchObject({
      uri: "https://example.com/page",
      css_selector: "main",
      headers: { "x-a": "1" },
    });
    expect(data.key_values.kv.value).toEqual({ data: { color: "blue", size: "L" } });
    const conv = data.conversations.chat.value as { messages: { ident: string }[] };
    expect(conv.messages.map((m) => m.ident)).toEqual(["m1", "m2"]);
    const file = data.files.doc.value as { file: Record<string, unknown>; language: string; added: string };
    expect(file.language).toBe("en");
    expect(file.file).toMatchObject({ filename: "q3.pdf", content_type: "application/pdf", size: PDF.length });
    expect(file.file).not.toHaveProperty("payload");
    expect(file.file.md5).toMatch(/^[0-9a-f]{32}$/);

    const only = await d.client.call(api.getResource.byId, {
      params: { kbid, rid },
      query: { show: ["values"], field_type: ["text", "key_value"] },
    });
    expect(Object.keys(only.data as object).sort()).toEqual(["key_values", "texts"]);
  });

  it("stores the base64 payload as a blob under the data dir, never inline", async () => {
    const store = await d.daemon.services.store.kb(kbid);
    const keys = await store.blobs.keysUnder("r");
    expect(keys).toHaveLength(1);
    expect(await store.blobs.readBuffer(keys[0])).toEqual(PDF);
    // Under the data dir: small blobs are packed (blobs/packs/), larger ones a file each.
    expect(filesUnder(join(d.home, "data", "kbs", kbid, "blobs")).length).toBeGreaterThan(0);
    // The payload text is not kept in the tables either.
    const lance = filesUnder(join(d.home, "data", "kbs", kbid, "lance"));
    const b64 = PDF.toString("base64");
    for (const f of lance) expect(readFileSync(f).includes(b64)).toBe(false);
  });

  it("shows field status with show=errors", async () => {
    const r = await d.client.call(api.getResource.byId, {
      params: { kbid, rid },
      query: { show: ["errors"], field_type: ["text"] },
    });
    expect(r.data).toEqual({ texts: { body: { status: expect.stringMatching(/^(PENDING|PROCESSED)$/) } } });
  });

  it("answers HEAD with 200 or 404 on both paths", async () => {
    expect((await rawCall(d.client, "HEAD", `/api/v1/kb/${kbid}/resource/${rid}`)).status).toBe(200);
    expect((await rawCall(d.client, "HEAD", `/api/v1/kb/${kbid}/slug/full-res`)).status).toBe(200);
    const missing = await rawCall(d.client, "HEAD", `/api/v1/kb/${kbid}/resource/${"0".repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("");
    expect((await rawCall(d.client, "HEAD", `/api/v1/kb/${kbid}/slug/nope`)).status).toBe(404);
  });

  it("answers the wire's 404 for a missing resource", async () => {
    const e = await failure(d.client.call(api.getResource.bySlug, { params: { kbid, rslug: "nope" } }));
    expect(e.status).toBe(404);
    expect(e.detail).toBe("Resource does not exist");
  });

  it("refuses a slug clash with 409 and the wire's message, on create and on patch", async () => {
    const e = await failure(d.client.call(api.createResource, { params: { kbid }, body: { slug: "full-res", title: "dup" } }));
    expect(e.status).toBe(409);
    expect(e.detail).toBe("Resource slug full-res already exists");
    const other = await d.client.call(api.createResource, { params: { kbid }, body: { slug: "other", title: "Other" } });
    const p = await failure(
      d.client.call(api.updateResource.byId, { params: { kbid, rid: other.uuid }, body: { slug: "full-res" } }),
    );
    expect(p.status).toBe(409);
    expect(p.detail).toBe("Resource slug full-res already exists");
    await d.client.call(api.deleteResource.bySlug, { params: { kbid, rslug: "other" } });
  });

  it("patches by id and by slug with increasing seqids, keeping what is not sent", async () => {
    const a = await d.client.call(api.updateResource.byId, { params: { kbid, rid }, body: { title: "Renamed", hidden: true } });
    expect(a.seqid).toBeGreaterThan(createSeq);
    const b = await d.client.call(api.updateResource.bySlug, {
      params: { kbid, rslug: "full-res" },
      body: { summary: "New summary", origin: { path: "/moved", tags: ["t"] } },
    });
    expect(b.seqid).toBeGreaterThan(a.seqid);
    const r = await d.client.call(api.getResource.byId, {
      params: { kbid, rid },
      query: { show: ["basic", "origin", "values"], field_type: ["generic"] },
    });
    expect(r).toMatchObject({
      title: "Renamed",
      summary: "New summary",
      hidden: true,
      last_seqid: b.seqid,
      metadata: { status: expect.stringMatching(/^(PENDING|PROCESSED)$/) },
    });
    expect(r.origin).toMatchObject({ path: "/moved", tags: ["t"] });
    expect((r.data as { generics: Record<string, { value: string }> }).generics.title.value).toBe("Renamed");
    expect(Date.parse(r.modified as string)).toBeGreaterThanOrEqual(Date.parse(r.created as string));
  });

  it("puts, gets and deletes single fields of every writable kind", async () => {
    const seqs: number[] = [];
    const put = async (type: string, id: string, body: unknown, bySlug = false) => {
      const path = bySlug ? `/api/v1/kb/${kbid}/slug/full-res/${type}/${id}` : `/api/v1/kb/${kbid}/resource/${rid}/${type}/${id}`;
      const r = await rawCall(d.client, "PUT", path, body);
      expect(r.status, `${type} ${r.text}`).toBe(201);
      seqs.push((r.json as { seqid: number }).seqid);
    };
    await put("text", "notes", { body: "extra notes", format: "PLAIN" });
    await put("link", "ref", { uri: "https://example.org/" }, true);
    await put("file", "img", {
      file: { filename: "a.txt", content_type: "text/plain", payload: Buffer.from("hello").toString("base64") },
    });
    await put("conversation", "talk", { messages: [{ ident: "1", content: { text: "hi" } }] }, true);
    await put("key_value", "props", { data: { a: "b" } });
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]);

    const text = await d.client.call(api.getField.byId, { params: { kbid, rid, field_type: "text", field_id: "notes" } });
    expect(text).toEqual({ field_type: "text", field_id: "notes", value: { body: "extra notes", format: "PLAIN" } });
    const file = await d.client.call(api.getField.bySlug, {
      params: { kbid, rslug: "full-res", field_type: "file", field_id: "img" },
    });
    expect(file).toMatchObject({ field_type: "file", field_id: "img", value: { file: { filename: "a.txt", size: 5 } } });
    const kv = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rid}/key_value/props?show=values&show=errors`);
    expect(kv.json).toEqual({
      field_type: "key_value",
      field_id: "props",
      value: { data: { a: "b" } },
      status: expect.stringMatching(/^(PENDING|PROCESSED)$/),
    });

    const del = await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/slug/full-res/key_value/props`);
    expect(del.status).toBe(204);
    const gone = await failure(
      d.client.call(api.getField.byId, { params: { kbid, rid, field_type: "key_value", field_id: "props" } }),
    );
    expect(gone.status).toBe(404);
    const again = await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/resource/${rid}/key_value/props`);
    expect(again.status).toBe(404);
    const r = await d.client.call(api.getResource.byId, { params: { kbid, rid } });
    expect(r.last_seqid as number).toBeGreaterThan(seqs[seqs.length - 1]);
  });

  it("replaces a file's bytes and removes them with the field, leaving no orphan blob", async () => {
    const store = await d.daemon.services.store.kb(kbid);
    // The resource's other fields are processed (their outputs written) before counting.
    await d.daemon.services.processing.idle();
    const all = async () => (await store.blobs.keysUnder(`r/${rid}`)).length;
    // The fields' bytes (extraction outputs come and go as the queue processes the new field).
    const files = async () => (await store.blobs.keysUnder(`r/${rid}`)).filter((k) => !k.includes("/extracted/"));
    const before = (await files()).length;
    const allBefore = await all();
    const put = (text: string) =>
      rawCall(d.client, "PUT", `/api/v1/kb/${kbid}/resource/${rid}/file/swap`, {
        file: { filename: "s.txt", payload: Buffer.from(text).toString("base64") },
      });
    expect((await put("first version")).status).toBe(201);
    expect((await put("second, longer version")).status).toBe(201);
    // The first version's bytes go once the second's record is committed (off the request's path).
    await vi.waitFor(async () => expect((await files()).length).toBe(before + 1));
    const keys = await files();
    const texts = await Promise.all(keys.map(async (k) => (await store.blobs.readBuffer(k))?.toString("utf8")));
    expect(texts).toContain("second, longer version");
    const f = await d.client.call(api.getField.byId, { params: { kbid, rid, field_type: "file", field_id: "swap" } });
    expect((f.value as { file: { size: number } }).file.size).toBe("second, longer version".length);
    expect((await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/resource/${rid}/file/swap`)).status).toBe(204);
    // Its bytes and its extraction output, whenever that was written.
    await vi.waitFor(async () => expect(await all()).toBe(allBefore));
    expect((await files()).length).toBe(before);
  });

  it("appends conversation messages with PUT .../conversation/{id}/messages", async () => {
    const path = `/api/v1/kb/${kbid}/resource/${rid}/conversation/chat/messages`;
    const r = await rawCall(d.client, "PUT", path, [
      { ident: "m3", who: "carol", type: "UNSET", content: { text: "And Monday?" } },
    ]);
    expect(r.status).toBe(200);
    expect((r.json as { seqid: number }).seqid).toBeGreaterThan(createSeq);
    const bySlug = await rawCall(d.client, "PUT", `/api/v1/kb/${kbid}/slug/full-res/conversation/chat/messages`, [
      { ident: "m4", content: { text: "No." } },
    ]);
    expect(bySlug.status).toBe(200);
    const f = await d.client.call(api.getField.byId, { params: { kbid, rid, field_type: "conversation", field_id: "chat" } });
    expect((f.value as { messages: { ident: string }[] }).messages.map((m) => m.ident)).toEqual(["m1", "m2", "m3", "m4"]);
    const bad = await rawCall(d.client, "PUT", path, [{ content: { text: "no ident" } }]);
    expect(bad.status).toBe(422);
  });

  it("lists resources a page at a time, in the wire's shape", async () => {
    const made: string[] = [];
    for (let i = 0; i < 4; i++)
      made.push((await d.client.call(api.createResource, { params: { kbid }, body: { title: `page ${i}` } })).uuid);
    const all = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resources?page=0&size=20`);
    expect(all.status).toBe(200);
    const body = all.json as { resources: { id: string }[]; pagination: unknown };
    expect(Object.keys(body).sort()).toEqual(["pagination", "resources"]);
    expect(body.pagination).toEqual({ page: 0, size: 20, last: true });
    expect(body.resources).toHaveLength(5);
    const p0 = await d.client.call(api.listResources, { params: { kbid }, query: { page: 0, size: 2 } });
    const p1 = await d.client.call(api.listResources, { params: { kbid }, query: { page: 1, size: 2 } });
    const p2 = await d.client.call(api.listResources, { params: { kbid }, query: { page: 2, size: 2 } });
    expect(p0.pagination).toEqual({ page: 0, size: 2, last: false });
    expect(p2.pagination).toEqual({ page: 2, size: 2, last: true });
    const ids = [...p0.resources, ...p1.resources, ...p2.resources].map((r) => r.id);
    expect(new Set(ids).size).toBe(5);
    for (const id of made) expect(ids).toContain(id);
    const one = p1.resources[0] as Record<string, unknown>;
    expect(["PENDING", "PROCESSED"]).toContain((one.metadata as { status: string }).status); // the queue may have processed it already
    expect(one).not.toHaveProperty("data");
    const bad = await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resources?size=0`);
    expect(bad.status).toBe(422);
    expect((bad.json as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["query", "size"]);
  });

  it("deletes by id and by slug (204), removing the resource, its fields and its blobs", async () => {
    const store = await d.daemon.services.store.kb(kbid);
    const blobDir = join(d.home, "data", "kbs", kbid, "blobs", "r", rid);
    expect((await store.blobs.keysUnder(`r/${rid}`)).length).toBeGreaterThan(0); // its file, its fields' extraction outputs
    const del = await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/slug/full-res`);
    expect(del.status).toBe(204);
    expect((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/resource/${rid}`)).status).toBe(404);
    expect((await rawCall(d.client, "HEAD", `/api/v1/kb/${kbid}/slug/full-res`)).status).toBe(404);
    expect(existsSync(blobDir)).toBe(false);
    expect(await store.blobs.keysUnder(`r/${rid}`)).toEqual([]);
    // The slug is free again.
    const again = await d.client.call(api.createResource, { params: { kbid }, body: { slug: "full-res" } });
    const byId = await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/resource/${again.uuid}`);
    expect(byId.status).toBe(204);
    expect((await rawCall(d.client, "DELETE", `/api/v1/kb/${kbid}/resource/${again.uuid}`)).status).toBe(404);
  });

  it("hides resources on creation when the knowledge box says so", async () => {
    const kb = await d.client.call(kbs.createKb, {
      body: { slug: "hiding", hidden_resources_enabled: true, hidden_resources_hide_on_creation: true },
    });
    const r = await d.client.call(api.createResource, { params: { kbid: kb.uuid }, body: { title: "secret" } });
    const got = await d.client.call(api.getResource.byId, { params: { kbid: kb.uuid, rid: r.uuid } });
    expect(got.hidden).toBe(true);
    const shown = await d.client.call(api.createResource, { params: { kbid: kb.uuid }, body: { title: "shown", hidden: false } });
    expect((await d.client.call(api.getResource.byId, { params: { kbid: kb.uuid, rid: shown.uuid } })).hidden).toBe(false);
  });

  it("keeps seqids strictly increasing across many concurrent writes", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => d.client.call(api.createResource, { params: { kbid }, body: { title: `c${i}` } })),
    );
    const seqs = results.map((r) => r.seqid).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(20);
  });
});
