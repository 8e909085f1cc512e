// Generated from src/api/resources.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/resources.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/resources.js";
import type { Routed } from "../client.js";

export type * from "../../api/resources.js";

export const EXTRACTED: typeof api.EXTRACTED = [
  "metadata",
  "vectors",
  "large_metadata",
  "text",
  "link",
  "file",
  "question_answers",
];
export const SHOW: typeof api.SHOW = ["basic", "origin", "extra", "relations", "values", "extracted", "errors", "security"];
export const appendMessages: Routed<typeof api.appendMessages> = {
  byId: { method: "PUT", path: "/api/v1/kb/:kbid/resource/:rid/conversation/:field_id/messages", stream: false },
  bySlug: { method: "PUT", path: "/api/v1/kb/:kbid/slug/:rslug/conversation/:field_id/messages", stream: false },
};
export const createResource: Routed<typeof api.createResource> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/resources",
  stream: false,
};
export const deleteField: Routed<typeof api.deleteField> = {
  byId: { method: "DELETE", path: "/api/v1/kb/:kbid/resource/:rid/:field_type/:field_id", stream: false },
  bySlug: { method: "DELETE", path: "/api/v1/kb/:kbid/slug/:rslug/:field_type/:field_id", stream: false },
};
export const deleteResource: Routed<typeof api.deleteResource> = {
  byId: { method: "DELETE", path: "/api/v1/kb/:kbid/resource/:rid", stream: false },
  bySlug: { method: "DELETE", path: "/api/v1/kb/:kbid/slug/:rslug", stream: false },
};
export const getField: Routed<typeof api.getField> = {
  byId: { method: "GET", path: "/api/v1/kb/:kbid/resource/:rid/:field_type/:field_id", stream: false },
  bySlug: { method: "GET", path: "/api/v1/kb/:kbid/slug/:rslug/:field_type/:field_id", stream: false },
};
export const getResource: Routed<typeof api.getResource> = {
  byId: { method: "GET", path: "/api/v1/kb/:kbid/resource/:rid", stream: false },
  bySlug: { method: "GET", path: "/api/v1/kb/:kbid/slug/:rslug", stream: false },
};
export const headResource: Routed<typeof api.headResource> = {
  byId: { method: "HEAD", path: "/api/v1/kb/:kbid/resource/:rid", stream: false },
  bySlug: { method: "HEAD", path: "/api/v1/kb/:kbid/slug/:rslug", stream: false },
};
export const listResources: Routed<typeof api.listResources> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/resources",
  stream: false,
};
export const putField: Routed<typeof api.putField> = {
  byId: { method: "PUT", path: "/api/v1/kb/:kbid/resource/:rid/:field_type/:field_id", stream: false },
  bySlug: { method: "PUT", path: "/api/v1/kb/:kbid/slug/:rslug/:field_type/:field_id", stream: false },
};
export const reindexResource: Routed<typeof api.reindexResource> = {
  byId: { method: "POST", path: "/api/v1/kb/:kbid/resource/:rid/reindex", stream: false },
  bySlug: { method: "POST", path: "/api/v1/kb/:kbid/slug/:rslug/reindex", stream: false },
};
export const reprocessField: Routed<typeof api.reprocessField> = {
  byId: { method: "POST", path: "/api/v1/kb/:kbid/resource/:rid/:field_type/:field_id/reprocess", stream: false },
  bySlug: { method: "POST", path: "/api/v1/kb/:kbid/slug/:rslug/:field_type/:field_id/reprocess", stream: false },
};
export const reprocessResource: Routed<typeof api.reprocessResource> = {
  byId: { method: "POST", path: "/api/v1/kb/:kbid/resource/:rid/reprocess", stream: false },
  bySlug: { method: "POST", path: "/api/v1/kb/:kbid/slug/:rslug/reprocess", stream: false },
};
export const updateResource: Routed<typeof api.updateResource> = {
  byId: { method: "PATCH", path: "/api/v1/kb/:kbid/resource/:rid", stream: false },
  bySlug: { method: "PATCH", path: "/api/v1/kb/:kbid/slug/:rslug", stream: false },
};
