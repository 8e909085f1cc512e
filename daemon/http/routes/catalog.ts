import type { Hono } from "hono";
import { toValidationIssues } from "../../../src/api/errors.js";
import * as api from "../../../src/api/search.js";
import { invalid } from "../../errors.js";
import { CatalogService } from "../../search/catalog.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  const catalog = new CatalogService(s.kbs, s.search);
  mount(app, api.catalog, async ({ params, body }) => catalog.catalog(params.kbid, body ?? {}));
  mount(app, api.catalogGet, async ({ params, query }) => {
    const raw = api.queryToBody(query, ["filters", "faceted", "show"]);
    const r = api.CatalogBody.safeParse(raw);
    if (!r.success) throw invalid(toValidationIssues(r.error, "query", raw));
    return catalog.catalog(params.kbid, r.data);
  });
  mount(app, api.catalogFacets, async ({ params, body }) => catalog.facets(params.kbid, body.facets, body.filter_expression));
}
