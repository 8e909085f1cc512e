// Generated from src/api/standalone.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/standalone.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/standalone.js";
import type { Routed } from "../client.js";

export type * from "../../api/standalone.js";

export const configCheck: Routed<typeof api.configCheck> = { method: "GET", path: "/api/v1/config-check", stream: false };
export const healthAlive: Routed<typeof api.healthAlive> = { method: "GET", path: "/api/v1/health/alive", stream: false };
export const healthReady: Routed<typeof api.healthReady> = { method: "GET", path: "/api/v1/health/ready", stream: false };
export const versions: Routed<typeof api.versions> = { method: "GET", path: "/api/v1/versions", stream: false };
