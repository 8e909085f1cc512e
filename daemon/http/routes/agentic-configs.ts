import type { Hono } from "hono";
import * as api from "../../../src/api/agentic-configs.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Agentic configurations of a knowledge box (applied by ask's `agentic_config_id`). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const c = s.ask.agentic;
  mount(app, api.listAgenticConfigs, async ({ params }) => c.list(params.kbid));
  mount(app, api.getAgenticConfig, async ({ params }) => c.get(params.kbid, params.agentic_id));
  mount(app, api.createAgenticConfig, async ({ params, body }) => {
    await c.create(params.kbid, params.agentic_id, body);
    return new Response(null, { status: 201 });
  });
  mount(app, api.updateAgenticConfig, async ({ params, body }) => c.update(params.kbid, params.agentic_id, body));
  mount(app, api.deleteAgenticConfig, async ({ params }) => c.delete(params.kbid, params.agentic_id));
}
