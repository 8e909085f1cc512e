import type { Hono } from "hono";
import * as api from "../../../src/api/agentic-configs.js";
import { agenticAskSocket } from "../../../src/api/agentic-socket.js";
import { checkAgenticSocket, serveAgenticSocket } from "../../ask/socket.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import { notUpgraded, takeUpgrade } from "../upgrade.js";

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
  mount(app, agenticAskSocket, async ({ params, query, principal, req }) => {
    const accept = takeUpgrade(req);
    await checkAgenticSocket(s.ask, params.kbid, query, principal);
    if (!accept) throw notUpgraded();
    serveAgenticSocket(await accept(), s.ask, params.kbid, query, principal);
    return null;
  });
}
