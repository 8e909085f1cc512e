// Generated from src/api/activity.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/activity.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/activity.js";
import type { Routed } from "../client.js";

export type * from "../../api/activity.js";

export const ACTIVITY_HEADERS: typeof api.ACTIVITY_HEADERS = {
  client: "x-platform-client",
  clientAlias: "x-ndb-client",
  user: "x-platform-user",
  userAlias: "x-nucliadb-user",
  forwardedFor: "x-forwarded-for",
};
export const AGGREGATIONS: typeof api.AGGREGATIONS = ["hour", "day", "week", "month", "quarter", "year", "millennium"];
export const DOWNLOAD_FORMATS: typeof api.DOWNLOAD_FORMATS = ["application/x-ndjson", "text/csv"];
export const EVENT_TYPES: typeof api.EVENT_TYPES = [
  "visited",
  "modified",
  "deleted",
  "new",
  "search",
  "suggest",
  "indexed",
  "chat",
  "ask",
  "retrieve",
  "augment",
  "started",
  "stopped",
  "processed",
  "guardrail",
];
export const FILTER_MEMBERS: typeof api.FILTER_MEMBERS = [
  "id",
  "date",
  "user_id",
  "user_type",
  "client_type",
  "total_duration",
  "platform_tokens",
  "question",
  "rephrased_question",
  "answer",
  "resources_count",
  "feedback_good",
  "feedback_comment",
  "model",
  "status",
  "resource_id",
  "learning_id",
  "retrieval_time",
];
export const activityDownloadFile: Routed<typeof api.activityDownloadFile> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/download_file/:request_id",
  stream: false,
};
export const activityDownloadStatus: Routed<typeof api.activityDownloadStatus> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/download_request/:request_id",
  stream: false,
};
export const activityMetrics: Routed<typeof api.activityMetrics> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/metrics",
  stream: false,
};
export const activityMonths: Routed<typeof api.activityMonths> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/:event_type/months",
  stream: false,
};
export const queryActivity: Routed<typeof api.queryActivity> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/activity/:event_type/query",
  stream: "ndjson",
};
export const remiEvent: Routed<typeof api.remiEvent> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/remi/events/:event_id",
  stream: false,
};
export const remiQuery: Routed<typeof api.remiQuery> = { method: "POST", path: "/api/v1/kb/:kbid/remi/query", stream: false };
export const remiScores: Routed<typeof api.remiScores> = { method: "GET", path: "/api/v1/kb/:kbid/remi/scores", stream: false };
export const requestActivityDownload: Routed<typeof api.requestActivityDownload> = {
  method: "POST",
  path: "/api/v1/kb/:kbid/activity/:event_type/query/download",
  stream: false,
};
