import type { Hono } from "hono";
import { ASK_HEADERS, askKb, askResource, askSlug } from "../../../src/api/ask.js";
import type { AskOptions } from "../../ask/service.js";
import { askLines, collectSync } from "../../ask/sync.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { type HandlerInput, mount } from "../mount.js";

/** Ask routes: prepare (4xx before anything streams), then stream the items or collect them (x-synchronous). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const ask = async (i: HandlerInput<typeof askKb>, resource?: AskOptions["resource"]) => {
    const prepared = await s.ask.prepare(i.params.kbid, i.body, {
      principal: i.principal,
      signal: i.signal,
      resource,
      showConsumption: i.headers[ASK_HEADERS.showConsumption],
    });
    i.setHeader(ASK_HEADERS.learningId, prepared.learningId);
    i.setHeader("Access-Control-Expose-Headers", ASK_HEADERS.learningId);
    const items = s.activity.ask(i.params.kbid, i, prepared, s.ask.run(prepared));
    return i.headers[ASK_HEADERS.synchronous] ? collectSync(items, prepared.learningId) : askLines(items);
  };
  mount(app, askKb, (i) => ask(i));
  mount(app, askResource, (i) => ask(i, { rid: i.params.rid }));
  mount(app, askSlug, (i) => ask(i, { slug: i.params.slug }));
}
