import type { ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import type { KboxClient } from "../../src/client/client.js";
import { OFFLINE, removeHome, spawnTestDaemon, tempHome } from "../helpers/daemon.js";

// The understanding API across a crash (kill -9): a TUS upload in progress resumes at its recorded
// offset, and a webhook delivery cut off by the crash is sent again after the start (durable outbox).
const home = tempHome();
const env = { ...OFFLINE, KBOX_FETCH_ALLOW: "127.0.0.1" };
let child: ChildProcess | undefined;
const held: ServerResponse[] = [];
const calls: { headers: IncomingHttpHeaders; body: string }[] = [];
let hold = true;
const hooks = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    calls.push({ headers: req.headers, body });
    if (hold)
      held.push(res); // never answered: the daemon dies while it waits
    else res.writeHead(200).end();
  });
});

afterAll(async () => {
  child?.kill("SIGKILL");
  for (const r of held) r.destroy();
  hooks.closeAllConnections();
  await new Promise((r) => hooks.close(r));
  removeHome(home);
});

async function send(c: KboxClient, method: string, path: string, headers: Record<string, string>, body?: string | Buffer) {
  const res = await c.raw({ method, path, headers, body });
  let text = "";
  for await (const x of res.body) text += x;
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

it("resumes a TUS upload and a cut-off webhook delivery after kill -9", { timeout: 120_000 }, async () => {
  await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  let d = await spawnTestDaemon(home, [], env);
  child = d.child;
  const content = Buffer.from("The harbour master keeps the tide tables in the blue cabinet.\n");
  const tus = { "tus-resumable": "1.0.0" };
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const created = await send(d.client, "POST", "/api/v1/processing/tusupload", {
    ...tus,
    "upload-length": String(content.length),
    "upload-metadata": `filename ${b64("tides.txt")},content_type ${b64("text/plain")}`,
  });
  expect(created.status).toBe(201);
  const location = String(created.headers.location);
  const patch = (c: KboxClient, offset: number, bytes: Buffer) =>
    send(
      c,
      "PATCH",
      location,
      { ...tus, "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      bytes,
    );
  const first = await patch(d.client, 0, content.subarray(0, 20));
  expect(first.headers["upload-offset"]).toBe("20");

  const push = await send(
    d.client,
    "POST",
    "/api/v1/processing/push",
    { "content-type": "application/json" },
    JSON.stringify({
      textfield: { note: { body: "The lighthouse keeper logs every passing ship.", format: 0 } },
      webhook_config: { uri: hookUrl, secret: "outbox-secret" },
    }),
  );
  expect(push.status).toBe(200);
  const pid = push.json.processing_id;
  // The first delivery reaches the receiver, which holds it; the daemon dies while it waits.
  await until("the first delivery", () => (calls.length ? true : undefined));
  const before = await send(d.client, "GET", `/api/v1/processing/requests/${pid}`, {});
  expect(before.json.webhook).toMatchObject({ delivered: false, attempts: 1, pending: true });
  d.child.kill("SIGKILL");
  await new Promise((r) => d.child.once("exit", r));
  hold = false;

  d = await spawnTestDaemon(home, [], env);
  child = d.child;
  const again = await until("the delivery after the restart", () => (calls.length >= 2 ? calls[1] : undefined));
  expect(again.headers["x-kbox-delivery-attempt"]).toBe("2");
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(again.headers["x-kbox-signature"])) ?? [];
  expect(createHmac("sha256", "outbox-secret").update(`${t}.${again.body}`).digest("hex")).toBe(v1);
  expect(JSON.parse(again.body)).toMatchObject({ processing_id: pid, completed: true });
  const after = await until("the delivered state", async () => {
    const r = await send(d.client, "GET", `/api/v1/processing/requests/${pid}`, {});
    return r.json.webhook?.delivered ? r.json : undefined;
  });
  expect(after.webhook).toMatchObject({ delivered: true, attempts: 2, pending: false });

  // The upload resumes where the recorded chunk ended.
  const head = await send(d.client, "HEAD", location, tus);
  expect(head.status).toBe(200);
  expect(head.headers["upload-offset"]).toBe("20");
  expect((await patch(d.client, 0, content)).status).toBe(409);
  const last = await patch(d.client, 20, content.subarray(20));
  expect(last.headers["tus-upload-finished"]).toBe("1");
  const token = last.json as string;
  const file = await send(
    d.client,
    "POST",
    "/api/v1/processing/push",
    { "content-type": "application/json" },
    JSON.stringify({ filefield: { doc: token } }),
  );
  const done = await until("the file's processing", async () => {
    const r = await send(d.client, "GET", `/api/v1/processing/requests/${file.json.processing_id}`, {});
    return r.json.completed ? r.json : undefined;
  });
  expect(done.response.fields["f/doc"].text).toBe(content.toString());
});
