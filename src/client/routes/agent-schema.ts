// Generated from src/api/agent-schema.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agent-schema.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agent-schema.js";
import type { Routed } from "../client.js";

export type * from "../../api/agent-schema.js";

export const agentFullSchema: Routed<typeof api.agentFullSchema> = {
  method: "GET",
  path: "/api/v1/agent/:agent_id/fullschema",
  stream: false,
};
