import type { Hono } from "hono";
import { toValidationIssues } from "../../../src/api/errors.js";
import * as api from "../../../src/api/search.js";
import { invalid } from "../../errors.js";
import { CatalogService } from "../../search/catalog.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

const SEARCH_LISTS = [
  "fields",
  "filters",
  "features",
  "show",
  "field_type_filter",
  "extracted",
  "resource_filters",
  "keyword_filters",
  "faceted",
];

export function register(app: Hono<HttpEnv>, s: Services): void {
  const catalog = new CatalogService(s.kbs, s.search);
  mount(app, api.search, async ({ params, body }) => catalog.searchKb(params.kbid, body ?? {}));
  mount(app, api.searchGet, async ({ params, query }) => {
    const raw = api.queryToBody(query, SEARCH_LISTS);
    const r = api.SearchBody.safeParse(raw);
    if (!r.success) throw invalid(toValidationIssues(r.error, "query", raw));
    return catalog.searchKb(params.kbid, r.data);
  });
  mount(app, api.suggest, async ({ params, query }) => catalog.suggest(params.kbid, query));
}
