import type { Hono } from "hono";
import * as api from "../../../src/api/models.js";
import { KboxError } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** An NDJSON response fed by `run`, which gets a function to emit one item. */
function ndjsonResponse(run: (emit: (item: unknown) => void) => Promise<void>): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const emit = (item: unknown) => {
        try {
          controller.enqueue(enc.encode(`${JSON.stringify(item)}\n`));
        } catch {
          // the client went away; the work goes on to a consistent stop
        }
      };
      await run(emit);
      try {
        controller.close();
      } catch {
        // already closed by a cancelled client
      }
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.listModels, async () => s.models.list());
  mount(app, api.pullModel, async ({ body, signal }) => {
    // Refuse a bad id or a concurrent pull with a plain status before the stream starts.
    if (s.models.pulling(body.id)) throw new KboxError(409, `model ${body.id} is already being pulled`);
    return ndjsonResponse(async (emit) => {
      try {
        const model = await s.models.pull(body, emit, signal);
        emit({ type: "done", model });
      } catch (e) {
        emit({ type: "error", detail: e instanceof KboxError ? String(e.detail) : `pull failed: ${(e as Error).message}` });
      }
    });
  });
  mount(app, api.addModel, async ({ body }) => s.models.addRemote(body));
  mount(app, api.useModel, async ({ body }) => s.models.use(body.name));
  mount(app, api.removeModel, async ({ query }) => ({ removed: await s.models.remove(query.name, query.force === "true") }));
}
