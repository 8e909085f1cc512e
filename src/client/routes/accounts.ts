// Generated from src/api/accounts.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/accounts.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/accounts.js";
import type { Routed } from "../client.js";

export type * from "../../api/accounts.js";

export const KEY_HEADERS: typeof api.KEY_HEADERS = [
  "x-platform-serviceaccount",
  "x-nuclia-serviceaccount",
  "x-stf-serviceaccount",
];
export const LOCAL_ACCOUNT: typeof api.LOCAL_ACCOUNT = "local";
export const ROLES_HEADER: typeof api.ROLES_HEADER = "x-nucliadb-roles";
export const ROLE_GRANTS: typeof api.ROLE_GRANTS = {
  SOWNER: ["READER", "WRITER", "MANAGER", "OWNER"],
  SCONTRIBUTOR: ["READER", "WRITER"],
  SMEMBER: ["READER"],
};
export const createServiceAccount: Routed<typeof api.createServiceAccount> = {
  method: "POST",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_accounts",
  stream: false,
};
export const createServiceAccountKey: Routed<typeof api.createServiceAccountKey> = {
  method: "POST",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id/keys",
  stream: false,
};
export const deleteServiceAccount: Routed<typeof api.deleteServiceAccount> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id",
  stream: false,
};
export const deleteServiceAccountKey: Routed<typeof api.deleteServiceAccountKey> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id/key/:key_id",
  stream: false,
};
export const listServiceAccounts: Routed<typeof api.listServiceAccounts> = {
  method: "GET",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_accounts",
  stream: false,
};
