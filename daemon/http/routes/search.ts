import type { Hono } from "hono";
import * as api from "../../../src/api/search.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  // The GET form carries the same body as query parameters; mount turns them into it.
  mount(app, { post: api.search, get: api.searchGet }, async ({ params, body }) => s.catalog.searchKb(params.kbid, body ?? {}));
  mount(app, api.suggest, async ({ params, query }) => s.catalog.suggest(params.kbid, query));
}
