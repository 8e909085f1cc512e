import { z } from "zod";
import { route } from "./route.js";

/** A stored search configuration: the members of a find or ask request, applied by name. */
export const SearchConfiguration = z.object({
  kind: z.enum(["find", "ask"]),
  config: z.record(z.string(), z.unknown()),
});
export type SearchConfiguration = z.infer<typeof SearchConfiguration>;

const Params = z.object({
  kbid: z.string(),
  name: z
    .string()
    .min(1)
    .max(250)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Configuration names may hold letters, digits and _ . : -"),
});

export const createSearchConfig = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  params: Params,
  body: SearchConfiguration,
  status: 201,
  role: "OWNER",
  summary: "Store a search configuration",
});
export const updateSearchConfig = route({
  method: "PATCH",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  params: Params,
  body: SearchConfiguration,
  role: "OWNER",
  summary: "Replace a stored search configuration",
});
export const deleteSearchConfig = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  params: Params,
  status: 204,
  role: "OWNER",
  summary: "Delete a stored search configuration",
});
export const getSearchConfig = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/search_configurations/:name",
  params: Params,
  response: SearchConfiguration,
  role: "READER",
  summary: "Read a stored search configuration",
});
export const listSearchConfigs = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/search_configurations",
  params: z.object({ kbid: z.string() }),
  response: z.record(z.string(), SearchConfiguration),
  role: "READER",
  summary: "Every stored search configuration, by name",
});
