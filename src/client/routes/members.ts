// Generated from src/api/members.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/members.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/members.js";
import type { Routed } from "../client.js";

export type * from "../../api/members.js";

export const acceptInvite: Routed<typeof api.acceptInvite> = { method: "POST", path: "/api/v1/invites/accept", stream: false };
export const accountInvites: Routed<typeof api.accountInvites> = {
  method: "GET",
  path: "/api/v1/account/:account/invites",
  stream: false,
};
export const accountUser: Routed<typeof api.accountUser> = {
  method: "GET",
  path: "/api/v1/account/:account/user/:user_id",
  stream: false,
};
export const accountUsers: Routed<typeof api.accountUsers> = {
  method: "GET",
  path: "/api/v1/account/:account/users",
  stream: false,
};
export const deleteAccountInvite: Routed<typeof api.deleteAccountInvite> = {
  method: "DELETE",
  path: "/api/v1/account/:account/invite/:email",
  stream: false,
};
export const deleteKbInvite: Routed<typeof api.deleteKbInvite> = {
  method: "DELETE",
  path: "/api/v1/account/:account/kb/:kb/invite",
  stream: false,
};
export const inviteToAccount: Routed<typeof api.inviteToAccount> = {
  method: "POST",
  path: "/api/v1/account/:account/invite",
  stream: false,
};
export const inviteToKb: Routed<typeof api.inviteToKb> = {
  method: "POST",
  path: "/api/v1/account/:account/kb/:kb/invite",
  stream: false,
};
export const kbInvites: Routed<typeof api.kbInvites> = {
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/invites",
  stream: false,
};
export const kbPermissions: Routed<typeof api.kbPermissions> = {
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/permissions",
  stream: false,
};
export const kbUsers: Routed<typeof api.kbUsers> = {
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/users",
  stream: false,
};
export const updateAccountUsers: Routed<typeof api.updateAccountUsers> = {
  method: "PATCH",
  path: "/api/v1/account/:account/users",
  stream: false,
};
export const updateKbUsers: Routed<typeof api.updateKbUsers> = {
  method: "PATCH",
  path: "/api/v1/account/:account/kb/:kb/users",
  stream: false,
};
