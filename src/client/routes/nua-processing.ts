// Generated from src/api/nua-processing.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/nua-processing.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/nua-processing.js";
import type { Routed } from "../client.js";

export type * from "../../api/nua-processing.js";

export const NUA_TEXT_FORMATS: typeof api.NUA_TEXT_FORMATS = ["PLAIN", "HTML", "MARKDOWN", "RST", "JSON"];
export const downloadBinary: Routed<typeof api.downloadBinary> = {
  method: "GET",
  path: "/api/v1/processing/download",
  stream: false,
};
export const getRequest: Routed<typeof api.getRequest> = {
  method: "GET",
  path: "/api/v1/processing/requests/:processing_id",
  stream: false,
};
export const listRequests: Routed<typeof api.listRequests> = {
  method: "GET",
  path: "/api/v1/processing/requests",
  stream: false,
};
export const pull: Routed<typeof api.pull> = { method: "GET", path: "/api/v1/processing/pull", stream: false };
export const pushV1: Routed<typeof api.pushV1> = { method: "POST", path: "/api/v1/processing/push", stream: false };
export const pushV2: Routed<typeof api.pushV2> = { method: "POST", path: "/api/v2/processing/push", stream: false };
export const statusListV2: Routed<typeof api.statusListV2> = { method: "GET", path: "/api/v2/processing/status", stream: false };
export const statusV2: Routed<typeof api.statusV2> = {
  method: "GET",
  path: "/api/v2/processing/status/:processing_id",
  stream: false,
};
export const streamResults: Routed<typeof api.streamResults> = {
  method: "GET",
  path: "/api/v1/processing/requests/:processing_id/results",
  stream: "sse",
};
export const tusCreate: Routed<typeof api.tusCreate> = { method: "POST", path: "/api/v1/processing/tusupload", stream: false };
export const tusHead: Routed<typeof api.tusHead> = {
  method: "HEAD",
  path: "/api/v1/processing/tusupload/:upload_id",
  stream: false,
};
export const tusPatch: Routed<typeof api.tusPatch> = {
  method: "PATCH",
  path: "/api/v1/processing/tusupload/:upload_id",
  stream: false,
};
export const uploadToProcess: Routed<typeof api.uploadToProcess> = {
  method: "POST",
  path: "/api/v1/processing/upload",
  stream: false,
};
