// Generated from src/api/tokens.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/tokens.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/tokens.js";
import type { Routed } from "../client.js";

export type * from "../../api/tokens.js";

export const agentKey: Routed<typeof api.agentKey> = { method: "POST", path: "/api/v1/service_account_agent_key", stream: false };
export const ephemeralToken: Routed<typeof api.ephemeralToken> = {
  method: "POST",
  path: "/api/v1/ephemeral_token",
  stream: false,
};
export const kbEphemeralToken: Routed<typeof api.kbEphemeralToken> = {
  method: "POST",
  path: "/api/v1/account/:account/kb/:kb/ephemeral_tokens",
  stream: false,
};
export const temporalKey: Routed<typeof api.temporalKey> = {
  method: "POST",
  path: "/api/v1/service_account_temporal_key",
  stream: false,
};
