import { z } from "zod";
import { DateTime } from "./common.js";
import { route } from "./route.js";

/** Roles a service account holds on a knowledge box (or, locally, on every knowledge box). */
export const KbRole = z.enum(["SOWNER", "SMEMBER", "SCONTRIBUTOR"]);
export type KbRole = z.infer<typeof KbRole>;

/** What each service-account role may do, in the local roles of wire.md. */
export const ROLE_GRANTS: Record<KbRole, ReadonlyArray<"READER" | "WRITER" | "MANAGER" | "OWNER">> = {
  SOWNER: ["READER", "WRITER", "MANAGER", "OWNER"],
  SCONTRIBUTOR: ["READER", "WRITER"],
  SMEMBER: ["READER"],
};

/** The default account's slug: account-level paths accept it, as they accept the account's id. */
export const LOCAL_ACCOUNT = "local";

export const ServiceAccountKey = z.object({ id: z.string(), created: z.string(), expires: z.string() });
export const ServiceAccount = z.object({
  id: z.string(),
  title: z.string(),
  role: KbRole,
  kb_id: z.string().nullable(),
  keys: z.array(ServiceAccountKey),
});
export type ServiceAccount = z.infer<typeof ServiceAccount>;

const KbScope = z.object({ account_id: z.string(), kb_id: z.string() });
const SaScope = KbScope.extend({ sa_id: z.string() });

export const CreateServiceAccount = z.object({ title: z.string().trim().min(1).max(250), role: KbRole });

/** `kb_id` `*` addresses account-wide service accounts, whose keys work on every knowledge box. */
export const createServiceAccount = route({
  method: "POST",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_accounts",
  params: KbScope,
  body: CreateServiceAccount,
  response: z.object({ id: z.string() }),
  status: 201,
  role: "OWNER",
  summary: "Add a service account",
});
export const listServiceAccounts = route({
  method: "GET",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_accounts",
  params: KbScope,
  response: z.array(ServiceAccount),
  role: "OWNER",
  summary: "List service accounts",
});
export const deleteServiceAccount = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id",
  params: SaScope,
  status: 204,
  role: "OWNER",
  summary: "Delete a service account and its keys",
});
export const createServiceAccountKey = route({
  method: "POST",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id/keys",
  params: SaScope,
  body: z.object({ expires: DateTime }),
  response: z.object({ id: z.string(), token: z.string() }),
  status: 201,
  role: "OWNER",
  summary: "Add a key (the token is shown once)",
});
export const deleteServiceAccountKey = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/kb/:kb_id/service_account/:sa_id/key/:key_id",
  params: SaScope.extend({ key_id: z.string() }),
  status: 204,
  role: "OWNER",
  summary: "Delete a key",
});

/** Headers that carry a service-account key, spec name first. */
export const KEY_HEADERS = ["x-platform-serviceaccount", "x-nuclia-serviceaccount", "x-stf-serviceaccount"] as const;
/** Header with `;`-separated local roles, honoured only when the daemon trusts it. */
export const ROLES_HEADER = "x-nucliadb-roles";
