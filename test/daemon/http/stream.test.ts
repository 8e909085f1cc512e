/**
 * The one stream encoder, through the real app shell with routes of the test's own: NDJSON and SSE
 * framing, the route's error item, SSE's end event, headers, and a client that goes away.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mount } from "../../../daemon/http/mount.js";
import { route } from "../../../src/api/route.js";
import { type PortlessApp, startPortlessApp } from "../../helpers/app.js";

const lines = route({ method: "GET", path: "/t/lines", stream: "ndjson", scope: "authenticated", role: "READER", summary: "t" });
const events = route({
  method: "GET",
  path: "/t/events",
  stream: "sse",
  sseDone: "[DONE]",
  streamError: (message) => ({ error: { message } }),
  scope: "authenticated",
  role: "READER",
  summary: "t",
});
const failing = route({ ...lines, path: "/t/failing", streamError: (message) => ({ item: { type: "error", error: message } }) });
const failingSse = route({ ...events, path: "/t/failing-sse" });
const endless = route({ ...lines, path: "/t/endless" });
const either = route({ ...lines, path: "/t/either" });
const notStreamed = route({ method: "GET", path: "/t/json", scope: "authenticated", role: "READER", summary: "t" });

/** What the endless route's work saw: its signal aborting and its generator returning. */
const seen = { aborted: false, returned: false, produced: 0 };

async function* items(n: number, fail?: string) {
  for (let i = 0; i < n; i++) yield { n: i };
  if (fail) throw new Error(fail);
}

let t: PortlessApp;
beforeAll(async () => {
  t = await startPortlessApp({
    areas: [
      (app) => {
        mount(app, lines, async ({ setHeader }) => {
          setHeader("x-test", "yes");
          return items(3);
        });
        mount(app, events, async () => items(2));
        mount(app, failing, async () => items(2, "model went away"));
        mount(app, failingSse, async () => items(1, "model went away"));
        mount(app, either, async ({ req }) => (new URL(req.url).searchParams.has("sync") ? { all: 3 } : items(3)));
        mount(app, notStreamed, async () => items(1) as never);
        mount(app, endless, async ({ signal }) =>
          (async function* () {
            signal.addEventListener("abort", () => {
              seen.aborted = true;
            });
            try {
              for (;;) {
                yield { n: seen.produced++ };
                await new Promise((r) => setTimeout(r, 5));
              }
            } finally {
              seen.returned = true;
            }
          })(),
        );
      },
    ],
  });
});
afterAll(async () => t?.close());

describe("the stream encoder", () => {
  it("writes NDJSON: one item a line, exactly application/x-ndjson, with the handler's headers", async () => {
    const res = await t.request("GET", "/t/lines");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.headers.get("x-test")).toBe("yes");
    expect(await res.text()).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
  });

  it("writes SSE: one data event an item, then the route's end event", async () => {
    const res = await t.request("GET", "/t/events");
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe('data: {"n":0}\n\ndata: {"n":1}\n\ndata: [DONE]\n\n');
  });

  it("ends a stream whose work fails with the route's error item (and no end event)", async () => {
    expect(await (await t.request("GET", "/t/failing")).text()).toBe(
      '{"n":0}\n{"n":1}\n{"item":{"type":"error","error":"model went away"}}\n',
    );
    expect(await (await t.request("GET", "/t/failing-sse")).text()).toBe(
      'data: {"n":0}\n\ndata: {"error":{"message":"model went away"}}\n\n',
    );
  });

  it("answers JSON when a stream route's handler returns a value (x-synchronous and the like)", async () => {
    const res = await t.request("GET", "/t/either?sync=1");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ all: 3 });
  });

  it("refuses (500, logged) a stream from a route that declares none", async () => {
    const res = await t.request("GET", "/t/json");
    expect(res.status).toBe(500);
    expect(t.logs.join("\n")).toMatch(/declares no stream kind/);
  });

  it("aborts the work's signal and returns the iterable when the client goes away", async () => {
    const res = await t.request("GET", "/t/endless");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^\{"n":0\}\n/);
    await reader.cancel();
    for (let i = 0; i < 100 && !seen.returned; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toMatchObject({ aborted: true, returned: true });
    const after = seen.produced;
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.produced).toBe(after);
  });
});
