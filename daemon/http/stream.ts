import type { RouteDef, StreamKind } from "../../src/api/route.js";

const CONTENT_TYPE: Record<StreamKind, string> = {
  // Exactly this, no charset: one hosted client rejects anything else (wire.md).
  ndjson: "application/x-ndjson",
  sse: "text/event-stream",
};

const FRAME: Record<StreamKind, (data: string) => string> = {
  ndjson: (data) => `${data}\n`,
  sse: (data) => `data: ${data}\n\n`,
};

/** Is a handler's result a stream of items (and not a JSON array or a finished Response)? */
export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && Symbol.asyncIterator in v;
}

/**
 * The one encoder of streamed routes: each item as a line (NDJSON) or a `data:` event (SSE), pulled
 * only as fast as the client reads. Work that fails after the response began ends the stream with the
 * route's error item; a completed SSE stream ends with its `sseDone` event. A client that goes away
 * aborts `abort` (the work's signal) and calls the iterable's `return()`, so generators run their
 * `finally` blocks.
 */
export function streamResponse(
  def: Pick<RouteDef, "stream" | "streamError" | "sseDone" | "status">,
  items: AsyncIterable<unknown>,
  abort: AbortController,
  headers: Record<string, string>,
): Response {
  const kind = def.stream || "ndjson";
  const it = items[Symbol.asyncIterator]();
  const enc = new TextEncoder();
  const frame = (data: string) => enc.encode(FRAME[kind](data));
  let ended = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await it.next();
        if (!next.done) return controller.enqueue(frame(JSON.stringify(next.value)));
        ended = true;
        if (kind === "sse" && def.sseDone !== undefined) controller.enqueue(frame(def.sseDone));
        controller.close();
      } catch (e) {
        ended = true;
        // A cancelled stream has no reader left to tell.
        if (abort.signal.aborted) return;
        controller.enqueue(frame(JSON.stringify(def.streamError(e instanceof Error ? e.message : String(e)))));
        controller.close();
      }
    },
    cancel() {
      abort.abort();
      // A generator suspended in an await takes the return once it yields; nothing waits for that.
      if (!ended) void Promise.resolve(it.return?.()).catch(() => undefined);
    },
  });
  return new Response(body, {
    status: def.status,
    headers: { ...headers, "content-type": CONTENT_TYPE[kind], "cache-control": "no-cache" },
  });
}
