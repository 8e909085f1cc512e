import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { startWebhookServer } from "../helpers/webhook-server.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";

// The understanding API of kboxd as a zone: clients and NUA keys, processing with SSE and webhooks, usage limits.
let z: RemoteZone;
let hooks: Awaited<ReturnType<typeof startWebhookServer>>;
let key: string;
let clientId: string;
const api = (path: string) => `${z.url}/api${path.startsWith("/v2") ? "" : "/v1"}${path}`;

async function call(
  method: string,
  path: string,
  o: { key?: string; nua?: string; body?: unknown; raw?: Buffer; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers["x-nuclia-serviceaccount"] = `Bearer ${o.key}`;
  if (o.nua) headers["x-nuclia-nuakey"] = `Bearer ${o.nua}`;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(api(path), {
    method,
    headers,
    body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Read a server-sent event stream to its end: the JSON of each `data:` line. */
async function sse(path: string, nua: string): Promise<{ events: any[]; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(api(path), { headers: { "x-nuclia-nuakey": `Bearer ${nua}` } });
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const text = await res.text();
  const events = text
    .split("\n\n")
    .filter((b) => b.startsWith("data: "))
    .map((b) => JSON.parse(b.slice(6)));
  return { events, ms: performance.now() - t0 };
}

beforeAll(async () => {
  hooks = await startWebhookServer([500]);
  z = await startRemoteZone("nua-zone", { KBOX_FETCH_ALLOW: "127.0.0.1" });
  z.d.daemon.services.models.registerEmbedder("hash64", new HashEmbedder(64));
  const c = await call("POST", `/account/${z.account.id}/nua_clients`, {
    key: z.key,
    body: { title: "ndb", contact: "ops@example.com", webhook: hooks.url },
  });
  expect(c.status).toBe(201);
  ({ token: key, client_id: clientId } = c.json);
});
afterAll(async () => {
  await z?.stop();
  await hooks?.close();
});

describe("processing through the understanding API", () => {
  let pid: string;
  let fileToken: string;
  const fileText =
    "# Lighthouses\n\nThe keeper of the lighthouse logs every passing ship in a red book.\n\nStorms break the lamp twice a year.";

  it("uploads a file and pushes it with a text to process", async () => {
    const up = await call("POST", "/processing/upload", {
      nua: key,
      raw: Buffer.from(fileText),
      headers: { "content-type": "text/markdown", "x-filename": "lighthouse.md" },
    });
    expect(up.status).toBe(201);
    fileToken = up.json;
    expect(typeof fileToken).toBe("string");
    const push = await call("POST", "/processing/push", {
      nua: key,
      body: {
        kbid: "my-ndb-kb",
        title: "Lighthouse notes",
        labels: ["topic/sea"],
        filefield: { doc: fileToken },
        textfield: { note: { body: "Ferries cross the bay every morning at dawn.", format: 0 } },
        learning_config: { semantic_models: ["hash64"] },
      },
    });
    expect(push.status).toBe(200);
    expect(push.json).toMatchObject({ queue: "private", uuid: expect.any(String), processing_id: expect.any(String) });
    expect(push.json.seqid).toEqual(expect.any(Number));
    pid = push.json.processing_id;
  });

  it("streams the request's events to completion", async () => {
    const { events } = await sse(`/processing/requests/${pid}/results`, key);
    expect(events[0]).toMatchObject({ type: "scheduled", processing_id: pid });
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "completed", processing_id: pid, completed: true, failed: false });
    // The title is a field too (a/title), as in any resource.
    expect(Object.keys(last.response.fields).sort()).toEqual(["a/title", "f/doc", "t/note"]);
    // data_types narrows the record: text only, no paragraphs.
    const narrow = await sse(`/processing/requests/${pid}/results?data_types=text`, key);
    const rec = narrow.events.at(-1).response.fields["t/note"];
    expect(rec.text).toContain("Ferries cross the bay");
    expect(rec.paragraphs).toBeUndefined();
  });

  it("reads the processed record with paragraphs and vectors", async () => {
    const r = await call("GET", `/processing/requests/${pid}`, { nua: key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      processing_id: pid,
      kbid: "my-ndb-kb",
      completed: true,
      scheduled: false,
      labels: ["topic/sea"],
    });
    const doc = r.json.response.fields["f/doc"];
    expect(doc.status).toBe("PROCESSED");
    expect(doc.text).toContain("logs every passing ship");
    expect(doc.paragraphs.length).toBeGreaterThan(0);
    expect(doc.paragraphs.map((p: any) => p.text).join(" ")).toContain("Storms break the lamp");
    for (const p of doc.paragraphs) expect(p.vectors.hash64).toHaveLength(64);
    const v2 = await call("GET", `/v2/processing/status/${pid}`, { nua: key });
    expect(v2.json.processing_id).toBe(pid);
    const list = await call("GET", "/processing/requests?kbid=my-ndb-kb&limit=5", { nua: key });
    expect(list.json.results.map((x: any) => x.processing_id)).toEqual([pid]);
    expect(list.json.cursor).toBeNull();
    expect((await call("GET", "/processing/requests?scheduled=true", { nua: key })).json.results).toEqual([]);
  });

  it("posts the result to the webhook, signed, retried once after a 500", async () => {
    const calls = await hooks.waitFor(2);
    expect(calls.map((c) => c.status)).toEqual([500, 200]);
    const ok = calls[1];
    expect(ok.headers["x-kbox-delivery-attempt"]).toBe("2");
    const sig = String(ok.headers["x-kbox-signature"]);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig) ?? [];
    const secret = createHash("sha256").update(key).digest("hex");
    expect(v1).toBe(createHmac("sha256", secret).update(`${t}.${ok.body}`).digest("hex"));
    const body = JSON.parse(ok.body);
    expect(body).toMatchObject({ processing_id: pid, completed: true });
    expect(body.response.fields["t/note"].paragraphs.length).toBeGreaterThan(0);
  });

  it("downloads the file sent by its token, pulls the result once", async () => {
    const res = await fetch(api(`/processing/download?token=${encodeURIComponent(fileToken)}`), {
      headers: { "x-nuclia-nuakey": `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(fileText);
    const pulled = await call("GET", "/processing/pull", { nua: key });
    expect(pulled.json).toMatchObject({ status: "ok", msgid: pid });
    expect((await call("GET", "/processing/pull", { nua: key })).json).toEqual({ status: "empty" });
  });

  it("answers 422 for a push without fields or with an unknown token, 404 for another client's request", async () => {
    expect((await call("POST", "/processing/push", { nua: key, body: {} })).status).toBe(422);
    // A request's webhook secret and header values are used, never shown back.
    const hidden = await call("POST", "/processing/push", {
      nua: key,
      body: {
        textfield: { a: { body: "Short note.", format: 0 } },
        webhook_config: { uri: hooks.url, headers: { authorization: "Bearer hook-secret" }, secret: "s3cret" },
      },
    });
    const shown = await call("GET", `/processing/requests/${hidden.json.processing_id}`, { nua: key });
    expect(JSON.stringify(shown.json)).not.toMatch(/s3cret|hook-secret/);
    expect(shown.json.request.webhook_config).toEqual({ uri: hooks.url, headers: { authorization: "********" } });
    const bad = await call("POST", "/processing/push", { nua: key, body: { filefield: { x: "nope.nope" } } });
    expect(bad.status).toBe(422);
    expect(bad.json.detail[0].loc).toEqual(["body", "filefield", "x"]);
    const other = await call("POST", `/account/${z.account.id}/nua_clients`, { key: z.key, body: { title: "other" } });
    expect((await call("GET", `/processing/requests/${pid}`, { nua: other.json.token })).status).toBe(404);
  });
});

describe("resumable uploads of files to process (TUS)", () => {
  it("creates, sends two chunks, resumes from HEAD, and pushes the token of the finished upload", async () => {
    const content = Buffer.from("Chapter one. The cartographer draws the northern coast.\n\nChapter two. Maps of the islands.");
    const b64 = (v: string) => Buffer.from(v).toString("base64");
    const created = await fetch(api("/processing/tusupload"), {
      method: "POST",
      headers: {
        "x-nuclia-nuakey": `Bearer ${key}`,
        "tus-resumable": "1.0.0",
        "upload-length": String(content.length),
        "upload-metadata": `filename ${b64("maps.txt")},content_type ${b64("text/plain")}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("location") as string;
    expect(location).toMatch(/^\/api\/v1\/processing\/tusupload\/[0-9a-f]{32}$/);
    const patch = (offset: number, bytes: Buffer) =>
      fetch(`${z.url}${location}`, {
        method: "PATCH",
        headers: {
          "x-nuclia-nuakey": `Bearer ${key}`,
          "tus-resumable": "1.0.0",
          "upload-offset": String(offset),
          "content-type": "application/offset+octet-stream",
        },
        body: bytes,
      });
    const first = await patch(0, content.subarray(0, 20));
    expect(first.status).toBe(200);
    expect(first.headers.get("upload-offset")).toBe("20");
    expect((await patch(5, content.subarray(5))).status).toBe(409);
    const head = await fetch(`${z.url}${location}`, { method: "HEAD", headers: { "x-nuclia-nuakey": `Bearer ${key}` } });
    expect(head.headers.get("upload-offset")).toBe("20");
    const last = await patch(20, content.subarray(20));
    expect(last.headers.get("tus-upload-finished")).toBe("1");
    const token = await last.json();
    const push = await call("POST", "/processing/push", { nua: key, body: { filefield: { maps: token } } });
    const { events } = await sse(`/processing/requests/${push.json.processing_id}/results?data_types=text`, key);
    expect(events.at(-1).response.fields["f/maps"].text).toContain("Maps of the islands");
    const dl = await fetch(api(`/processing/download?token=${encodeURIComponent(token)}`), {
      headers: { "x-nuclia-nuakey": `Bearer ${key}` },
    });
    expect(Buffer.from(await dl.arrayBuffer()).equals(content)).toBe(true);
  });
});

describe("keys and limits", () => {
  it("refuses a client over its tokens_limit with 423 and reports its usage", async () => {
    const c = await call("POST", `/account/${z.account.id}/nua_clients`, {
      key: z.key,
      body: { title: "small", tokens_limit: 20 },
    });
    const small = c.json.token;
    const q = await call("POST", "/predict/query", {
      nua: small,
      body: { text: "how many ships pass the lighthouse each night" },
    });
    expect(q.status).toBe(200);
    expect(q.json.query).toBe("how many ships pass the lighthouse each night");
    const over = await call("POST", "/predict/query", { nua: small, body: { text: "again" } });
    expect(over.status).toBe(423);
    expect(over.json.detail).toMatch(/tokens_limit of 20/);
    const push = await call("POST", "/processing/push", { nua: small, body: { textfield: { a: { body: "x", format: 0 } } } });
    expect(push.status).toBe(423);
    const act = await call("GET", `/account/${z.account.id}/nua_client/${c.json.client_id}/activity`, { key: z.key });
    expect(act.json).toMatchObject({ tokens_limit: 20, requests: 1 });
    expect(act.json.tokens_used).toBeGreaterThanOrEqual(20);
    expect(act.json.by_kind.predict).toBe(act.json.tokens_used);
    // Raising the limit unlocks it.
    await call("PATCH", `/account/${z.account.id}/nua_client/${c.json.client_id}`, {
      key: z.key,
      body: { tokens_limit: 10_000 },
    });
    expect((await call("POST", "/predict/query", { nua: small, body: { text: "again" } })).status).toBe(200);
    const shown = await call("GET", `/account/${z.account.id}/nua_client/${c.json.client_id}`, { key: z.key });
    expect(shown.json.tokens_used).toBeGreaterThan(20);
  });

  it("answers 401 to a wrong key and to the key of a deleted client", async () => {
    expect((await call("GET", "/processing/requests", { nua: "kbox_nua_wrong" })).status).toBe(401);
    expect((await call("POST", "/predict/query", { nua: `${key}x`, body: { text: "hi" } })).status).toBe(401);
    const box = z.d.daemon.services.kbs.list().find((k) => k.slug === `nua-${clientId}`);
    expect(box).toBeDefined();
    expect((await call("DELETE", `/account/${z.account.id}/nua_client/${clientId}`, { key: z.key })).status).toBe(204);
    expect((await call("GET", "/processing/requests", { nua: key })).status).toBe(401);
    expect(z.d.daemon.services.kbs.list().find((k) => k.slug === `nua-${clientId}`)).toBeUndefined();
  });
});
