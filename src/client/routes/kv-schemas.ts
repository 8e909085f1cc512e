// Generated from src/api/kv-schemas.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/kv-schemas.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/kv-schemas.js";
import type { Routed } from "../client.js";

export type * from "../../api/kv-schemas.js";

export const createKvSchema: Routed<typeof api.createKvSchema> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/kv-schemas",
  stream: false,
};
export const deleteKvSchema: Routed<typeof api.deleteKvSchema> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  stream: false,
};
export const getKvSchema: Routed<typeof api.getKvSchema> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  stream: false,
};
export const listKvSchemas: Routed<typeof api.listKvSchemas> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/kv-schemas",
  stream: false,
};
export const updateKvSchema: Routed<typeof api.updateKvSchema> = {
  method: "PATCH",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  stream: false,
};
