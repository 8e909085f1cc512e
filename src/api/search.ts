import { z } from "zod";
import { DateTime, ResourceStatus } from "./common.js";
import { CatalogFilterExpression, LegacyFilter } from "./filters.js";
import { FindBody } from "./find.js";
import { paramsToBody } from "./query-params.js";
import { Show } from "./resources.js";
import { route } from "./route.js";

const KbOnly = z.object({ kbid: z.string() });
const Query = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export const SortOption = z.object({
  field: z.enum(["created", "modified", "title"]),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: z.number().int().min(1).nullable().optional(),
});

/** POST /search: find's members plus `faceted` and `sort`; paragraphs, fulltext and resources come back apart. */
export const SearchBody = FindBody.extend({
  faceted: z.array(z.string()).optional(),
  sort: SortOption.nullable().optional(),
  page_size: z.number().int().min(1).max(200).optional(),
});
export type SearchBody = z.infer<typeof SearchBody>;

const Results = z.looseObject({ results: z.array(z.unknown()), facets: z.record(z.string(), z.unknown()) });
export const SearchResponse = z.looseObject({
  resources: z.record(z.string(), z.unknown()),
  paragraphs: Results.nullable(),
  fulltext: Results.nullable(),
  sentences: Results.nullable(),
  relations: z.unknown().nullable(),
  nodes: z.unknown().nullable(),
  shards: z.unknown().nullable(),
  autofilters: z.array(z.string()),
});
export type SearchResponse = z.infer<typeof SearchResponse>;

export const search = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/search",
  params: KbOnly,
  body: SearchBody,
  response: SearchResponse,
  role: "READER",
  summary: "Search: paragraphs, fulltext and resources",
});
/** Search members that repeat as query parameters. */
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
export const searchGet = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/search",
  params: KbOnly,
  query: Query,
  body: SearchBody,
  bodyKind: "query",
  fromQuery: (q) => queryToBody(q, SEARCH_LISTS),
  response: SearchResponse,
  role: "READER",
  summary: "Search (query parameters)",
});

export const TitleMatch = z.object({
  query: z.string(),
  match: z.enum(["words", "fuzzy", "starts_with", "ends_with", "contains", "exact"]).default("words"),
});
/** POST /catalog: list resources by title match, resource filters and status, with facets. */
export const CatalogBody = z.object({
  query: z.union([z.string(), TitleMatch]).optional(),
  filter_expression: CatalogFilterExpression.nullable().optional(),
  filters: z.array(LegacyFilter).optional(),
  faceted: z.array(z.string()).optional(),
  sort: SortOption.nullable().optional(),
  page_number: z.number().int().min(0).optional(),
  page_size: z.number().int().min(1).max(200).optional(),
  with_status: ResourceStatus.nullable().optional(),
  range_creation_start: DateTime.nullable().optional(),
  range_creation_end: DateTime.nullable().optional(),
  range_modification_start: DateTime.nullable().optional(),
  range_modification_end: DateTime.nullable().optional(),
  hidden: z.boolean().nullable().optional(),
  show: z.array(Show).optional(),
});
export type CatalogBody = z.infer<typeof CatalogBody>;
export const catalog = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/catalog",
  params: KbOnly,
  body: CatalogBody,
  response: SearchResponse,
  role: "READER",
  summary: "List resources with filters and facets",
});
export const catalogGet = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/catalog",
  params: KbOnly,
  query: Query,
  body: CatalogBody,
  bodyKind: "query",
  fromQuery: (q) => queryToBody(q, ["filters", "faceted", "show"]),
  response: SearchResponse,
  role: "READER",
  summary: "Catalog (query parameters)",
});
export const catalogFacets = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/catalog/facets",
  params: KbOnly,
  body: z.object({ facets: z.array(z.string()).default([]), filter_expression: CatalogFilterExpression.nullable().optional() }),
  response: z.object({ facets: z.record(z.string(), z.record(z.string(), z.number())) }),
  role: "READER",
  summary: "Facet counts over the resource catalog",
});

export const SuggestQuery = z.object({
  query: z.string().default(""),
  features: z.preprocess(
    (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
    z.array(z.enum(["paragraph", "entities", "intent"])).optional(),
  ),
  fields: z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).optional()),
  filters: z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).optional()),
  show_hidden: z.preprocess((v) => v === "true" || v === true, z.boolean()).optional(),
});
export const suggest = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/suggest",
  params: KbOnly,
  query: SuggestQuery.passthrough(),
  response: z.looseObject({
    paragraphs: Results,
    entities: z.object({ entities: z.array(z.unknown()) }),
    resources: z.record(z.string(), z.unknown()),
  }),
  role: "READER",
  summary: "Suggest paragraphs and entities as the user types",
});

/** Query parameters of GET /search and /catalog as a body (lists repeat, objects are JSON). */
export function queryToBody(q: Record<string, string | string[]>, lists: string[]): Record<string, unknown> {
  const out = paramsToBody(q, {
    lists: new Set(lists),
    scalar: (k, one) => {
      if (/^\d+$/.test(one) && k !== "query") return Number(one);
      if (/^(true|false)$/i.test(one)) return one.toLowerCase() === "true";
      return one;
    },
  });
  if (typeof out.sort_field === "string") out.sort = { field: out.sort_field, order: out.sort_order ?? "desc" };
  delete out.sort_field;
  delete out.sort_order;
  return out;
}
