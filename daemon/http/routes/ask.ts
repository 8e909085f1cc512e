import type { Hono } from "hono";
import { ASK_HEADERS, type AskItem, askKb, askResource, askSlug } from "../../../src/api/ask.js";
import { BoolString } from "../../../src/api/common.js";
import type { AskOptions } from "../../ask/service.js";
import { collectSync } from "../../ask/sync.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { type HandlerInput, mount } from "../mount.js";

const flag = (req: Request, name: string) => BoolString.safeParse(req.headers.get(name) ?? "false").data === true;

const EXPOSE = { [ASK_HEADERS.learningId]: "", "Access-Control-Expose-Headers": ASK_HEADERS.learningId };

/** NDJSON (`application/x-ndjson`, no charset) from the ask items; a client going away stops generation. */
function ndjson(items: AsyncGenerator<AskItem>, abort: AbortController, learningId: string): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await items.next();
        if (done) controller.close();
        else controller.enqueue(enc.encode(`${JSON.stringify({ item: value })}\n`));
      } catch (e) {
        controller.enqueue(enc.encode(`${JSON.stringify({ item: { type: "error", error: (e as Error).message } })}\n`));
        controller.close();
      }
    },
    async cancel() {
      abort.abort();
      await items.return(undefined).catch(() => undefined);
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "application/x-ndjson", ...EXPOSE, [ASK_HEADERS.learningId]: learningId },
  });
}

/** Ask routes: thin — parse, prepare (4xx before streaming), then stream or collect. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const handle = async (kbid: string, input: HandlerInput<typeof askKb>, resource?: AskOptions["resource"]) => {
    const abort = new AbortController();
    input.signal.addEventListener("abort", () => abort.abort(), { once: true });
    const opts: AskOptions = {
      principal: input.principal,
      signal: abort.signal,
      resource,
      showConsumption: flag(input.req, ASK_HEADERS.showConsumption),
    };
    const prepared = await s.ask.prepare(kbid, input.body, opts);
    const items = s.ask.run(prepared);
    if (!flag(input.req, ASK_HEADERS.synchronous)) return ndjson(items, abort, prepared.learningId);
    const result = await collectSync(items, prepared.learningId);
    return Response.json(result, { headers: { ...EXPOSE, [ASK_HEADERS.learningId]: prepared.learningId } });
  };
  mount(app, askKb, (i) => handle(i.params.kbid, i));
  mount(app, askResource, (i) => handle(i.params.kbid, i, { rid: i.params.rid }));
  mount(app, askSlug, (i) => handle(i.params.kbid, i, { slug: i.params.slug }));
}
