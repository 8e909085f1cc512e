import { z } from "zod";
import { DateTime, KbSlug } from "./common.js";
import { route } from "./route.js";

/** Account-level management of a zone: accounts, zones, status, the current user and personal tokens. */

export const AccountRecord = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.string(),
  zone: z.string(),
  creation_date: z.string(),
  blocked_features: z.array(z.string()),
  can_manage_account: z.boolean(),
  current_kbs: z.number(),
  max_kbs: z.number(),
  current_users: z.number(),
  max_users: z.number(),
});
export type AccountRecord = z.infer<typeof AccountRecord>;

const AccountParams = z.object({ account: z.string() });

export const listAccounts = route({
  method: "GET",
  path: "/api/v1/accounts",
  response: z.array(AccountRecord),
  scope: "authenticated",
  role: "READER",
  summary: "List the accounts the caller belongs to",
});
export const createAccount = route({
  method: "POST",
  path: "/api/v1/accounts",
  body: z.object({
    slug: KbSlug,
    title: z.string().trim().min(1).max(250),
    description: z.string().max(10_000).optional(),
    email: z.string().optional(),
    zone: z.string().optional(),
  }),
  response: AccountRecord,
  status: 201,
  scope: "owner",
  role: "OWNER",
  summary: "Create an account (the machine's owner only)",
});
export const getAccount = route({
  method: "GET",
  path: "/api/v1/account/:account",
  params: AccountParams,
  response: AccountRecord,
  scope: "authenticated",
  role: "READER",
  summary: "Get an account (by id or slug)",
});
export const updateAccount = route({
  method: "PATCH",
  path: "/api/v1/account/:account",
  params: AccountParams,
  body: z.object({
    title: z.string().trim().min(1).max(250).optional(),
    description: z.string().max(10_000).optional(),
    slug: KbSlug.optional(),
    // kboxd signs users in with keys and tokens; it has no identity provider to hand SAML to.
    saml_config: z
      .unknown()
      .optional()
      .refine(
        (v) => v === undefined || v === null,
        "SAML single sign-on is not available on kboxd: users sign in with invitations, keys and tokens",
      ),
  }),
  status: 204,
  scope: "account",
  role: "OWNER",
  summary: "Modify an account",
});
export const deleteAccount = route({
  method: "DELETE",
  path: "/api/v1/account/:account",
  params: AccountParams,
  status: 204,
  scope: "owner",
  role: "OWNER",
  summary: "Delete an account without knowledge boxes",
});
export const accountStatus = route({
  method: "GET",
  path: "/api/v1/account/:account/status",
  params: AccountParams,
  response: z.object({ available: z.boolean() }),
  scope: "authenticated",
  role: "READER",
  summary: "Is the account available",
});
export const kbIndex = route({
  method: "GET",
  path: "/api/v1/account/:account/index/kbs",
  params: AccountParams,
  response: z.array(z.object({ account_id: z.string(), kb_id: z.string(), kb_mode: z.string(), zone_id: z.string() })),
  scope: "authenticated",
  role: "READER",
  summary: "Which zones hold the account's knowledge boxes",
});
export const usage = route({
  method: "GET",
  path: "/api/v1/account/:account/usage",
  params: AccountParams,
  query: z.object({
    from: DateTime,
    to: DateTime.optional(),
    knowledgebox: z.string().optional(),
    aggregation: z.string().optional(),
  }),
  response: z.array(z.object({ timestamp: z.string(), metrics: z.array(z.object({ name: z.string(), value: z.number() })) })),
  scope: "account",
  role: "MANAGER",
  summary: "Usage (this zone meters nothing: zeroes)",
});
export const Zone = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  private: z.boolean(),
  origin: z.string().optional(),
});
export const listZones = route({
  method: "GET",
  path: "/api/v1/zones",
  response: z.array(Zone),
  scope: "public",
  summary: "The zones (this daemon is one)",
});

export const AuthorizerInfo = z.object({
  auth: z.string(),
  user: z
    .object({
      user_id: z.string().optional(),
      account_id: z.string().optional(),
      account_slug: z.string().optional(),
      kb_id: z.string().optional(),
      role: z.string().optional(),
      account_type: z.string().optional(),
    })
    .optional(),
});
export const authorizerInfo = route({
  method: "GET",
  path: "/api/authorizer/info",
  query: z.object({ ip_info: z.string().optional() }),
  response: AuthorizerInfo,
  scope: "authenticated",
  role: "READER",
  summary: "Who am I: the credential's kind, account, knowledge box and role",
});

export const UserRecord = z.object({ id: z.string(), name: z.string(), email: z.string(), type: z.string() });
export const currentUser = route({
  method: "GET",
  path: "/api/v1/user",
  response: UserRecord,
  scope: "authenticated",
  role: "READER",
  summary: "The current user (a user token, or the machine's owner on the socket)",
});
export const welcome = route({
  method: "GET",
  path: "/api/v1/user/welcome",
  response: z.object({
    preferences: z.object({ email: z.string(), name: z.string(), type: z.string() }),
    accounts: z.array(z.string()),
    create: z.boolean(),
    dependant_accounts: z.array(z.object({ id: z.string(), slug: z.string() })),
  }),
  scope: "authenticated",
  role: "READER",
  summary: "The current user and their accounts",
});

export const PersonalToken = z.object({
  id: z.string(),
  description: z.string(),
  expires: z.string(),
  account_id: z.string().nullable(),
});
export const listPersonalTokens = route({
  method: "GET",
  path: "/api/v1/user/pa_tokens",
  response: z.array(PersonalToken),
  scope: "authenticated",
  role: "READER",
  summary: "List the current user's personal access tokens",
});
export const createPersonalToken = route({
  method: "POST",
  path: "/api/v1/user/pa_tokens",
  body: z.object({
    description: z.string().max(1000).default(""),
    expiration_date: DateTime,
    /** kbox: limit the token to one account (id or slug). */
    account: z.string().optional(),
  }),
  response: z.object({ id: z.string(), token: z.string(), expires: z.string() }),
  status: 201,
  scope: "authenticated",
  role: "READER",
  summary: "Create a personal access token (shown once)",
});
export const deletePersonalToken = route({
  method: "DELETE",
  path: "/api/v1/user/pa_token/:token_id",
  params: z.object({ token_id: z.string() }),
  status: 204,
  scope: "authenticated",
  role: "READER",
  summary: "Delete a personal access token; tokens it minted stop working",
});
