// Generated from src/api/agentic-socket.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/agentic-socket.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/agentic-socket.js";
import type { Routed } from "../client.js";

export type * from "../../api/agentic-socket.js";

export const agenticAskSocket: Routed<typeof api.agenticAskSocket> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/ask",
  stream: false,
};
