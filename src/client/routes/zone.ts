// Generated from src/api/zone.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/zone.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/zone.js";
import type { Routed } from "../client.js";

export type * from "../../api/zone.js";

export const accountStatus: Routed<typeof api.accountStatus> = {
  method: "GET",
  path: "/api/v1/account/:account/status",
  stream: false,
};
export const authorizerInfo: Routed<typeof api.authorizerInfo> = { method: "GET", path: "/api/authorizer/info", stream: false };
export const createAccount: Routed<typeof api.createAccount> = { method: "POST", path: "/api/v1/accounts", stream: false };
export const createPersonalToken: Routed<typeof api.createPersonalToken> = {
  method: "POST",
  path: "/api/v1/user/pa_tokens",
  stream: false,
};
export const currentUser: Routed<typeof api.currentUser> = { method: "GET", path: "/api/v1/user", stream: false };
export const deleteAccount: Routed<typeof api.deleteAccount> = {
  method: "DELETE",
  path: "/api/v1/account/:account",
  stream: false,
};
export const deletePersonalToken: Routed<typeof api.deletePersonalToken> = {
  method: "DELETE",
  path: "/api/v1/user/pa_token/:token_id",
  stream: false,
};
export const getAccount: Routed<typeof api.getAccount> = { method: "GET", path: "/api/v1/account/:account", stream: false };
export const kbIndex: Routed<typeof api.kbIndex> = { method: "GET", path: "/api/v1/account/:account/index/kbs", stream: false };
export const listAccounts: Routed<typeof api.listAccounts> = { method: "GET", path: "/api/v1/accounts", stream: false };
export const listPersonalTokens: Routed<typeof api.listPersonalTokens> = {
  method: "GET",
  path: "/api/v1/user/pa_tokens",
  stream: false,
};
export const listZones: Routed<typeof api.listZones> = { method: "GET", path: "/api/v1/zones", stream: false };
export const updateAccount: Routed<typeof api.updateAccount> = {
  method: "PATCH",
  path: "/api/v1/account/:account",
  stream: false,
};
export const usage: Routed<typeof api.usage> = { method: "GET", path: "/api/v1/account/:account/usage", stream: false };
export const welcome: Routed<typeof api.welcome> = { method: "GET", path: "/api/v1/user/welcome", stream: false };
