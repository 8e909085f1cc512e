// Generated from src/api/nua-predict.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/nua-predict.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/nua-predict.js";
import type { Routed } from "../client.js";

export type * from "../../api/nua-predict.js";

export const predictTokens: Routed<typeof api.predictTokens> = { method: "GET", path: "/api/v1/predict/tokens", stream: false };
