// Generated from src/api/add-folder.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/add-folder.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/add-folder.js";
import type { Routed } from "../client.js";

export type * from "../../api/add-folder.js";

export const addFolder: Routed<typeof api.addFolder> = { method: "POST", path: "/api/v1/kb/:kbid/add-folder", stream: "ndjson" };
