// Generated from src/api/tasks.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/tasks.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/tasks.js";
import type { Routed } from "../client.js";

export type * from "../../api/tasks.js";

export const TASK_NAMES: typeof api.TASK_NAMES = [
  "dummy",
  "env",
  "demo-dataset",
  "labeler",
  "llm-graph",
  "synthetic-questions",
  "ask",
  "llm-align",
  "semantic-model-migrator",
  "guard-a",
  "guard-b",
  "memory",
  "llama-guard",
  "prompt-guard",
];
export const cleanupTask: Routed<typeof api.cleanupTask> = {
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/cleanup",
  stream: false,
};
export const deleteTask: Routed<typeof api.deleteTask> = {
  method: "DELETE",
  path: "/api/v1/kb/:kb_uuid/task/:task_id",
  stream: false,
};
export const downloadAsset: Routed<typeof api.downloadAsset> = {
  method: "GET",
  path: "/api/v1/task-assets/:token",
  stream: false,
};
export const enableTask: Routed<typeof api.enableTask> = {
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/enable",
  stream: false,
};
export const getAsset: Routed<typeof api.getAsset> = {
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/assets/:asset_id",
  stream: false,
};
export const inspectTask: Routed<typeof api.inspectTask> = {
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/inspect",
  stream: false,
};
export const listAssets: Routed<typeof api.listAssets> = { method: "GET", path: "/api/v1/kb/:kb_uuid/assets", stream: false };
export const listTasks: Routed<typeof api.listTasks> = { method: "GET", path: "/api/v1/kb/:kb_uuid/tasks", stream: false };
export const patchTask: Routed<typeof api.patchTask> = {
  method: "PATCH",
  path: "/api/v1/kb/:kb_uuid/task/:task_id",
  stream: false,
};
export const restartTask: Routed<typeof api.restartTask> = {
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/restart",
  stream: false,
};
export const startTask: Routed<typeof api.startTask> = { method: "POST", path: "/api/v1/kb/:kb_uuid/task/start", stream: false };
export const stopTask: Routed<typeof api.stopTask> = {
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/stop",
  stream: false,
};
export const taskWorker: Routed<typeof api.taskWorker> = {
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/worker_config",
  stream: false,
};
