// Generated from src/api/datasets.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/datasets.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/datasets.js";
import type { Routed } from "../client.js";

export type * from "../../api/datasets.js";

export const DATASET_FORMATS: typeof api.DATASET_FORMATS = ["ARROW", "PARQUET"];
export const DATASET_TYPES: typeof api.DATASET_TYPES = [
  "FIELD_CLASSIFICATION",
  "PARAGRAPH_CLASSIFICATION",
  "SENTENCE_CLASSIFICATION",
  "TOKEN_CLASSIFICATION",
  "IMAGE_CLASSIFICATION",
  "PARAGRAPH_STREAMING",
  "QUESTION_ANSWER_STREAMING",
  "FIELD_STREAMING",
];
export const createAccountDataset: Routed<typeof api.createAccountDataset> = {
  method: "POST",
  path: "/api/v1/account/:account_id/datasets",
  stream: false,
};
export const createDataset: Routed<typeof api.createDataset> = { method: "POST", path: "/api/v1/datasets", stream: false };
export const deleteAccountDataset: Routed<typeof api.deleteAccountDataset> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id",
  stream: false,
};
export const deleteDataset: Routed<typeof api.deleteDataset> = {
  method: "DELETE",
  path: "/api/v1/dataset/:dataset_id",
  stream: false,
};
export const deleteDatasetTask: Routed<typeof api.deleteDatasetTask> = {
  method: "DELETE",
  path: "/api/v1/dataset/:dataset_id/task/:task_id",
  stream: false,
};
export const deletePartition: Routed<typeof api.deletePartition> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  stream: false,
};
export const deletePartitions: Routed<typeof api.deletePartitions> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partitions",
  stream: false,
};
export const downloadPartition: Routed<typeof api.downloadPartition> = {
  method: "GET",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  stream: false,
};
export const generateDataset: Routed<typeof api.generateDataset> = {
  method: "POST",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/generate",
  stream: false,
};
export const getDataset: Routed<typeof api.getDataset> = {
  method: "GET",
  path: "/api/v1/account/:account_id/dataset/:dataset_id",
  stream: false,
};
export const inspectDatasetTask: Routed<typeof api.inspectDatasetTask> = {
  method: "GET",
  path: "/api/v1/dataset/:dataset_id/task/:task_id/inspect",
  stream: false,
};
export const listDatasetTasks: Routed<typeof api.listDatasetTasks> = {
  method: "GET",
  path: "/api/v1/dataset/:dataset_id/tasks",
  stream: false,
};
export const listDatasets: Routed<typeof api.listDatasets> = {
  method: "GET",
  path: "/api/v1/account/:account_id/datasets",
  stream: false,
};
export const startDatasetTask: Routed<typeof api.startDatasetTask> = {
  method: "POST",
  path: "/api/v1/dataset/:dataset_id/task/start",
  stream: false,
};
export const stopDatasetTask: Routed<typeof api.stopDatasetTask> = {
  method: "POST",
  path: "/api/v1/dataset/:dataset_id/task/:task_id/stop",
  stream: false,
};
export const uploadAccountPartition: Routed<typeof api.uploadAccountPartition> = {
  method: "PUT",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  stream: false,
};
export const uploadPartition: Routed<typeof api.uploadPartition> = {
  method: "PUT",
  path: "/api/v1/dataset/:dataset_id/partition/:partition_id",
  stream: false,
};
