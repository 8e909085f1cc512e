import type { Hono } from "hono";
import * as api from "../../../src/api/search-configs.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  const c = s.search.configs;
  mount(app, api.listSearchConfigs, async ({ params }) => c.list(params.kbid));
  mount(app, api.createSearchConfig, async ({ params, body }) => {
    await c.create(params.kbid, params.name, body);
    return new Response(null, { status: 201 });
  });
  mount(app, api.updateSearchConfig, async ({ params, body }) => {
    await c.update(params.kbid, params.name, body);
    return {};
  });
  mount(app, api.deleteSearchConfig, async ({ params }) => c.delete(params.kbid, params.name));
  mount(app, api.getSearchConfig, async ({ params }) => c.get(params.kbid, params.name));
}
