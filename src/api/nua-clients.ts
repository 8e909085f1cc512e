import { z } from "zod";
import { route } from "./route.js";

/** Understanding-API (NUA) clients of an account; their keys authenticate `/predict` and `/processing`. */

const AccountParams = z.object({ account: z.string() });
const ClientParams = AccountParams.extend({ client_id: z.string() });

export const NuaClient = z.object({
  client_id: z.string(),
  internal_id: z.string(),
  account_id: z.string(),
  title: z.string(),
  description: z.string(),
  contact: z.string(),
  created: z.string(),
  tokens_limit: z.number().nullable(),
  allow_kb_management: z.boolean(),
  processing_webhook: z.unknown(),
  /** Tokens counted so far (predict, chat, processing), checked against tokens_limit (423 when used up). */
  tokens_used: z.number().int().optional(),
  local: z.boolean().optional(),
});
export type NuaClientRecord = z.infer<typeof NuaClient>;
const KeyOut = z.object({ token: z.string(), client_id: z.string(), internal_id: z.string() });

export const listNuaClients = route({
  method: "GET",
  path: "/api/v1/account/:account/nua_clients",
  params: AccountParams,
  query: z.object({ client_id: z.string().optional() }),
  response: z.object({ clients: z.array(NuaClient) }),
  scope: "account",
  role: "MANAGER",
  summary: "List NUA clients",
});
export const createNuaClient = route({
  method: "POST",
  path: "/api/v1/account/:account/nua_clients",
  params: AccountParams,
  body: z.object({
    title: z.string().trim().min(1).max(250),
    description: z.string().max(10_000).optional(),
    contact: z.string().max(320).default(""),
    tokens_limit: z.number().int().min(0).nullable().optional(),
    allow_kb_management: z.boolean().default(false),
    webhook: z.string().url().optional(),
    processing_webhook: z.object({ uri: z.string().url() }).loose().nullable().optional(),
  }),
  response: KeyOut,
  status: 201,
  scope: "account",
  role: "OWNER",
  summary: "Create a NUA client (its key is shown once)",
});
export const getNuaClient = route({
  method: "GET",
  path: "/api/v1/account/:account/nua_client/:client_id",
  params: ClientParams,
  response: NuaClient,
  scope: "account",
  role: "MANAGER",
  summary: "Get a NUA client",
});
export const updateNuaClient = route({
  method: "PATCH",
  path: "/api/v1/account/:account/nua_client/:client_id",
  params: ClientParams,
  body: z.strictObject({
    title: z.string().trim().min(1).max(250).optional(),
    contact: z.string().max(320).optional(),
    tokens_limit: z.number().int().min(0).nullable().optional(),
  }),
  response: NuaClient,
  scope: "account",
  role: "OWNER",
  summary: "Modify a NUA client",
});
export const deleteNuaClient = route({
  method: "DELETE",
  path: "/api/v1/account/:account/nua_client/:client_id",
  params: ClientParams,
  status: 204,
  scope: "account",
  role: "OWNER",
  summary: "Delete a NUA client; its key stops working",
});
export const renewNuaKey = route({
  method: "PUT",
  path: "/api/v1/account/:account/nua_client/:client_id/key",
  params: ClientParams,
  body: z.object({}).loose().optional(),
  response: KeyOut,
  status: 201,
  scope: "account",
  role: "OWNER",
  summary: "Renew a NUA client's key; the old one stops working at once",
});
export const nuaClientActivity = route({
  method: "GET",
  path: "/api/v1/account/:account/nua_client/:client_id/activity",
  params: ClientParams,
  query: z.object({ page: z.string().max(12).optional() }),
  response: z.object({
    client_id: z.string(),
    tokens_limit: z.number().nullable(),
    tokens_used: z.number().int(),
    by_kind: z.record(z.string(), z.number().int()),
    requests: z.number().int(),
  }),
  scope: "account",
  role: "MANAGER",
  summary: "A NUA client's token usage (by kind: predict, chat, processing) against its tokens_limit",
});
