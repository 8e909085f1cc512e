import { z } from "zod";
import { DateTime } from "./common.js";
import { route } from "./route.js";

/** Users and invitations of knowledge boxes and accounts. */

export const MemberKbRole = z.enum(["SOWNER", "SCONTRIBUTOR", "SMEMBER"]);
export const AccountRole = z.enum(["AOWNER", "AMEMBER"]);
export const Email = z.string().trim().email().max(320);

const KbParams = z.object({ account: z.string(), kb: z.string() });
const AccountParams = z.object({ account: z.string() });

export const Member = z.object({ id: z.string(), role: z.string(), email: z.string().optional(), name: z.string().optional() });
export const Invite = z.object({ email: z.string(), role: z.string(), expires: z.string() });
/** What creating an invitation answers on a zone that sends no mail: the one-time acceptance token and link. */
export const InviteCreated = z.object({
  email: z.string(),
  role: z.string(),
  expires: z.string(),
  token: z.string(),
  url: z.string(),
});

const UserId = z.string().min(1).max(64);
const RoleChange = z.object({ id: UserId, role: MemberKbRole });

export const kbUsers = route({
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/users",
  params: KbParams,
  query: z.object({ include_user_detail: z.enum(["true", "false"]).optional() }),
  response: z.array(Member),
  role: "MANAGER",
  summary: "Users of a knowledge box and their roles",
});
export const updateKbUsers = route({
  method: "PATCH",
  path: "/api/v1/account/:account/kb/:kb/users",
  params: KbParams,
  body: z.strictObject({
    add: z.array(RoleChange).optional(),
    update: z.array(RoleChange).optional(),
    delete: z.array(UserId).optional(),
  }),
  status: 204,
  role: "MANAGER",
  summary: "Add, update and delete users of a knowledge box in one call",
});
export const kbPermissions = route({
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/permissions",
  params: KbParams,
  response: z.object({ kb_id: z.string(), role: z.string().nullable(), roles: z.array(z.string()) }),
  role: "READER",
  summary: "The caller's permissions on a knowledge box",
});
export const inviteToKb = route({
  method: "POST",
  path: "/api/v1/account/:account/kb/:kb/invite",
  params: KbParams,
  body: z.object({ email: Email, role: MemberKbRole, came_from: z.string().optional(), expires: DateTime.optional() }),
  response: InviteCreated,
  status: 201,
  role: "MANAGER",
  summary: "Invite someone to a knowledge box (answers the one-time acceptance token)",
});
export const kbInvites = route({
  method: "GET",
  path: "/api/v1/account/:account/kb/:kb/invites",
  params: KbParams,
  response: z.array(Invite),
  role: "MANAGER",
  summary: "Pending invitations to a knowledge box",
});
export const deleteKbInvite = route({
  method: "DELETE",
  path: "/api/v1/account/:account/kb/:kb/invite",
  params: KbParams,
  /** Required; checked after the knowledge box (a missing box answers 404 first). */
  query: z.object({ email: Email.optional() }),
  status: 204,
  role: "MANAGER",
  summary: "Delete an invitation to a knowledge box",
});

export const accountUsers = route({
  method: "GET",
  path: "/api/v1/account/:account/users",
  params: AccountParams,
  response: z.array(Member),
  scope: "account",
  role: "MANAGER",
  summary: "Users of an account",
});
export const updateAccountUsers = route({
  method: "PATCH",
  path: "/api/v1/account/:account/users",
  params: AccountParams,
  body: z.strictObject({
    add: z.array(z.object({ id: UserId, role: AccountRole })).optional(),
    delete: z.array(UserId).optional(),
  }),
  status: 204,
  scope: "account",
  role: "OWNER",
  summary: "Add and delete users of an account",
});
export const accountUser = route({
  method: "GET",
  path: "/api/v1/account/:account/user/:user_id",
  params: AccountParams.extend({ user_id: z.string() }),
  response: Member,
  scope: "account",
  role: "MANAGER",
  summary: "A user of an account",
});
export const inviteToAccount = route({
  method: "POST",
  path: "/api/v1/account/:account/invite",
  params: AccountParams,
  body: z.object({
    email: Email,
    role: AccountRole.default("AMEMBER"),
    came_from: z.string().optional(),
    expires: DateTime.optional(),
  }),
  response: InviteCreated,
  status: 201,
  scope: "account",
  role: "OWNER",
  summary: "Invite someone to an account",
});
export const accountInvites = route({
  method: "GET",
  path: "/api/v1/account/:account/invites",
  params: AccountParams,
  response: z.array(Invite),
  scope: "account",
  role: "MANAGER",
  summary: "Pending invitations to an account",
});
export const deleteAccountInvite = route({
  method: "DELETE",
  path: "/api/v1/account/:account/invite/:email",
  params: AccountParams.extend({ email: Email }),
  status: 204,
  scope: "account",
  role: "OWNER",
  summary: "Delete an invitation to an account",
});

export const acceptInvite = route({
  method: "POST",
  path: "/api/v1/invites/accept",
  body: z.object({
    token: z.string().min(1).max(200),
    name: z.string().trim().min(1).max(200).optional(),
    /** How long the personal access token answered lasts (default 30 days). */
    token_expires: DateTime.optional(),
  }),
  response: z.object({
    user_id: z.string(),
    email: z.string(),
    account_id: z.string(),
    kb_id: z.string().nullable(),
    role: z.string(),
    token: z.string(),
    token_expires: z.string(),
  }),
  status: 201,
  scope: "public",
  summary: "Redeem an invitation (once): become a user, get a personal access token",
});
