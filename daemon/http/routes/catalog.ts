import type { Hono } from "hono";
import * as api from "../../../src/api/search.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  // The GET form carries the same body as query parameters; mount turns them into it.
  mount(app, { post: api.catalog, get: api.catalogGet }, async ({ params, body }) => s.catalog.catalog(params.kbid, body ?? {}));
  mount(app, api.catalogFacets, async ({ params, body }) => s.catalog.facets(params.kbid, body.facets, body.filter_expression));
}
