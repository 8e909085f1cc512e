// Generated from src/api/train.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/train.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/train.js";
import type { Routed } from "../client.js";

export type * from "../../api/train.js";

export const startTraining: Routed<typeof api.startTraining> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/train/:type/start",
  stream: false,
};
export const stopTraining: Routed<typeof api.stopTraining> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/train/:type/stop",
  stream: false,
};
export const trainedModel: Routed<typeof api.trainedModel> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/train/:type/model/model/nuclia.json",
  stream: false,
};
export const trainingExecutions: Routed<typeof api.trainingExecutions> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/train/executions",
  stream: false,
};
export const trainingStatus: Routed<typeof api.trainingStatus> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/train/:type/inspect",
  stream: false,
};
