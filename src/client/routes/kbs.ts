// Generated from src/api/kbs.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/kbs.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/kbs.js";
import type { Routed } from "../client.js";

export type * from "../../api/kbs.js";

export const accountCreateKb: Routed<typeof api.accountCreateKb> = {
  method: "POST",
  path: "/api/v1/account/:account_id/kbs",
  stream: false,
};
export const accountDeleteKb: Routed<typeof api.accountDeleteKb> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  stream: false,
};
export const accountGetKb: Routed<typeof api.accountGetKb> = {
  method: "GET",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  stream: false,
};
export const accountListKbs: Routed<typeof api.accountListKbs> = {
  method: "GET",
  path: "/api/v1/account/:account_id/kbs",
  stream: false,
};
export const accountUpdateKb: Routed<typeof api.accountUpdateKb> = {
  method: "PATCH",
  path: "/api/v1/account/:account_id/kb/:kb_id",
  stream: false,
};
export const counters: Routed<typeof api.counters> = { method: "GET", path: "/api/v1/kb/:kbid/counters", stream: false };
export const createKb: Routed<typeof api.createKb> = { method: "POST", path: "/api/v1/kbs", stream: false };
export const deleteKb: Routed<typeof api.deleteKb> = { method: "DELETE", path: "/api/v1/kb/:kbid", stream: false };
export const getKb: Routed<typeof api.getKb> = { method: "GET", path: "/api/v1/kb/:kbid", stream: false };
export const getKbBySlug: Routed<typeof api.getKbBySlug> = { method: "GET", path: "/api/v1/kb/s/:slug", stream: false };
export const listKbs: Routed<typeof api.listKbs> = { method: "GET", path: "/api/v1/kbs", stream: false };
export const updateKb: Routed<typeof api.updateKb> = { method: "PATCH", path: "/api/v1/kb/:kbid", stream: false };
