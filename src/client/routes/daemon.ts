// Generated from src/api/daemon.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/daemon.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/daemon.js";
import type { Routed } from "../client.js";

export type * from "../../api/daemon.js";

export const hello: Routed<typeof api.hello> = { method: "GET", path: "/api/v1/kbox/hello", stream: false };
export const shutdown: Routed<typeof api.shutdown> = { method: "POST", path: "/api/v1/kbox/shutdown", stream: false };
export const status: Routed<typeof api.status> = { method: "GET", path: "/api/v1/kbox/status", stream: false };
