// Generated from src/api/graph.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/graph.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/graph.js";
import type { Routed } from "../client.js";

export type * from "../../api/graph.js";

export const graphNodes: Routed<typeof api.graphNodes> = { method: "POST", path: "/api/v1/kb/:kbid/graph/nodes", stream: false };
export const graphRelations: Routed<typeof api.graphRelations> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/graph/relations",
  stream: false,
};
export const graphSearch: Routed<typeof api.graphSearch> = { method: "POST", path: "/api/v1/kb/:kbid/graph", stream: false };
