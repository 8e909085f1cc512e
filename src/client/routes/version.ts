// Generated from src/api/version.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The JSON constants and the types of src/api/version.ts. */
import type * as api from "../../api/version.js";

export type * from "../../api/version.js";

export const API_PREFIX: typeof api.API_PREFIX = "/api/v1";
export const PROTOCOL_VERSION: typeof api.PROTOCOL_VERSION = 1;
export const VERSION: typeof api.VERSION = "0.1.0";
