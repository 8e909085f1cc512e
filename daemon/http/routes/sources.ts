import type { Hono } from "hono";
import * as api from "../../../src/api/sources.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Sources of a knowledge box (named by agentic configurations); deleting one deletes the configurations naming it. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const agentic = s.ask.agentic;
  const src = agentic.sources;
  mount(app, api.listSources, async ({ params }) => src.list(params.kbid));
  mount(app, api.getSource, async ({ params }) => src.get(params.kbid, params.source_id));
  mount(app, api.createSource, async ({ params, body }) => {
    await src.create(params.kbid, params.source_id, body);
    return new Response(null, { status: 201 });
  });
  mount(app, api.updateSource, async ({ params, body }) => src.update(params.kbid, params.source_id, body));
  mount(app, api.deleteSource, async ({ params }) => agentic.deleteSource(params.kbid, params.source_id));
}
