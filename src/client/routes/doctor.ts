// Generated from src/api/doctor.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/doctor.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/doctor.js";
import type { Routed } from "../client.js";

export type * from "../../api/doctor.js";

export const doctor: Routed<typeof api.doctor> = { method: "GET", path: "/api/v1/kbox/doctor", stream: false };
