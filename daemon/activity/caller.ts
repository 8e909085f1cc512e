import { ACTIVITY_HEADERS } from "../../src/api/activity.js";
import type { Principal } from "../auth/principal.js";

/** What a request says about who made it: the members every activity row has. */
export interface Caller {
  user_id: string | null;
  user_type: string;
  client_type: string;
  forwarded_for: string | null;
}

/** The request a row is recorded for (a route's handler input has both). */
export interface RequestLike {
  req: Request;
  principal: Principal;
}

const USER_TYPES: Record<Principal["via"], string> = {
  socket: "OWNER",
  user: "USER",
  key: "SERVICE_ACCOUNT",
  token: "TOKEN",
  nua: "NUA",
  "roles-header": "ROLES_HEADER",
  anonymous: "ANONYMOUS",
};

/** The caller members of a row: the x-platform-* headers first, else who the credential is. */
export function callerOf({ req, principal }: RequestLike): Caller {
  const h = req.headers;
  const header = (name: string) => h.get(name)?.trim().slice(0, 200) || null;
  return {
    user_id:
      header(ACTIVITY_HEADERS.user) ?? header(ACTIVITY_HEADERS.userAlias) ?? principal.user ?? principal.credential ?? null,
    user_type: USER_TYPES[principal.via] ?? principal.via,
    client_type: (header(ACTIVITY_HEADERS.client) ?? header(ACTIVITY_HEADERS.clientAlias) ?? "api").toLowerCase(),
    forwarded_for: header(ACTIVITY_HEADERS.forwardedFor),
  };
}
