// Generated from src/api/route.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The JSON constants and the types of src/api/route.ts. */
import type * as api from "../../api/route.js";

export type * from "../../api/route.js";

export const ACCOUNT_PARAMS: typeof api.ACCOUNT_PARAMS = ["account_id", "account"];
export const KB_PARAMS: typeof api.KB_PARAMS = ["kbid", "kb_id", "kb", "kb_uuid"];
