// Generated from src/api/nua-clients.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/nua-clients.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/nua-clients.js";
import type { Routed } from "../client.js";

export type * from "../../api/nua-clients.js";

export const createNuaClient: Routed<typeof api.createNuaClient> = {
  method: "POST",
  path: "/api/v1/account/:account/nua_clients",
  stream: false,
};
export const deleteNuaClient: Routed<typeof api.deleteNuaClient> = {
  method: "DELETE",
  path: "/api/v1/account/:account/nua_client/:client_id",
  stream: false,
};
export const getNuaClient: Routed<typeof api.getNuaClient> = {
  method: "GET",
  path: "/api/v1/account/:account/nua_client/:client_id",
  stream: false,
};
export const listNuaClients: Routed<typeof api.listNuaClients> = {
  method: "GET",
  path: "/api/v1/account/:account/nua_clients",
  stream: false,
};
export const nuaClientActivity: Routed<typeof api.nuaClientActivity> = {
  method: "GET",
  path: "/api/v1/account/:account/nua_client/:client_id/activity",
  stream: false,
};
export const renewNuaKey: Routed<typeof api.renewNuaKey> = {
  method: "PUT",
  path: "/api/v1/account/:account/nua_client/:client_id/key",
  stream: false,
};
export const updateNuaClient: Routed<typeof api.updateNuaClient> = {
  method: "PATCH",
  path: "/api/v1/account/:account/nua_client/:client_id",
  stream: false,
};
