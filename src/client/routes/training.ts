// Generated from src/api/training.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/training.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/training.js";
import type { Routed } from "../client.js";

export type * from "../../api/training.js";

export const generativeProviders: Routed<typeof api.generativeProviders> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/generative_providers",
  stream: false,
};
export const trainsetPartitions: Routed<typeof api.trainsetPartitions> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/trainset",
  stream: false,
};
