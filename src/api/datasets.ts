import { z } from "zod";
import { route } from "./route.js";
import { TaskList, TaskName, TaskRecord, TaskResponse } from "./tasks.js";

export const DATASET_TYPES = [
  "FIELD_CLASSIFICATION",
  "PARAGRAPH_CLASSIFICATION",
  "SENTENCE_CLASSIFICATION",
  "TOKEN_CLASSIFICATION",
  "IMAGE_CLASSIFICATION",
  "PARAGRAPH_STREAMING",
  "QUESTION_ANSWER_STREAMING",
  "FIELD_STREAMING",
] as const;
export const DatasetType = z.enum(DATASET_TYPES);

/** kbox: how generated partitions are written: Arrow IPC streams, or Parquet files (snappy). */
export const DATASET_FORMATS = ["ARROW", "PARQUET"] as const;
export const DatasetFormat = z.enum(DATASET_FORMATS);

export const CreateDataset = z.strictObject({
  name: z.string().min(1).max(500),
  /** `labels`: labelsets (`topics`, `/l/topics`) or labels (`/l/topics/pets`) the rows carry. */
  filter: z.object({ labels: z.array(z.string().max(1000)).max(1000).optional() }).passthrough(),
  type: DatasetType,
  format: DatasetFormat.default("ARROW"),
});

export const Dataset = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  type: DatasetType,
  filter: z.record(z.string(), z.unknown()),
  created: z.string(),
  partitions: z.array(z.object({ id: z.string(), size: z.number().int() })),
  generated_from: z.string().nullable(),
  format: DatasetFormat,
});
export type Dataset = z.infer<typeof Dataset>;

const AccountParams = z.object({ account_id: z.string() });
const DatasetParams = z.object({ account_id: z.string(), dataset_id: z.string().uuid() });
const PartitionId = z
  .string()
  .regex(/^[a-zA-Z0-9_-]+$/)
  .max(200);
const PartitionParams = DatasetParams.extend({ partition_id: PartitionId });
const acct = { scope: "account", role: "MANAGER" } as const;

export const createDataset = route({
  method: "POST",
  path: "/api/v1/datasets",
  body: CreateDataset,
  response: z.object({ id: z.string() }),
  status: 201,
  ...acct,
  summary: "Create a dataset in the caller's account",
});

export const createAccountDataset = route({
  method: "POST",
  path: "/api/v1/account/:account_id/datasets",
  params: AccountParams,
  body: CreateDataset,
  response: z.object({ id: z.string() }),
  status: 201,
  ...acct,
  summary: "Create a dataset (name, filter, one of the eight types)",
});

export const listDatasets = route({
  method: "GET",
  path: "/api/v1/account/:account_id/datasets",
  params: AccountParams,
  response: z.object({ datasets: z.array(Dataset) }),
  ...acct,
  summary: "The account's datasets",
});

export const getDataset = route({
  method: "GET",
  path: "/api/v1/account/:account_id/dataset/:dataset_id",
  params: DatasetParams,
  response: Dataset,
  ...acct,
  summary: "A dataset and its partitions",
});

export const deleteAccountDataset = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id",
  params: DatasetParams,
  status: 204,
  ...acct,
  summary: "Delete a dataset and its partitions",
});

export const deleteDataset = route({
  method: "DELETE",
  path: "/api/v1/dataset/:dataset_id",
  params: z.object({ dataset_id: z.string().uuid() }),
  status: 204,
  ...acct,
  summary: "Delete a dataset of the caller's account",
});

export const uploadAccountPartition = route({
  method: "PUT",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  params: PartitionParams,
  bodyKind: "raw",
  status: 204,
  ...acct,
  summary: "Upload a partition (raw Arrow bytes; replaces one of the same id)",
});

export const uploadPartition = route({
  method: "PUT",
  path: "/api/v1/dataset/:dataset_id/partition/:partition_id",
  params: z.object({ dataset_id: z.string().uuid(), partition_id: PartitionId }),
  bodyKind: "raw",
  status: 204,
  ...acct,
  summary: "Upload a partition of a dataset of the caller's account",
});

export const downloadPartition = route({
  method: "GET",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  params: PartitionParams,
  ...acct,
  summary: "A partition's bytes (generated ones: an Arrow IPC stream, or Parquet for a PARQUET dataset)",
});

export const deletePartition = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partition/:partition_id",
  params: PartitionParams,
  status: 204,
  ...acct,
  summary: "Delete one partition",
});

export const deletePartitions = route({
  method: "DELETE",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/partitions",
  params: DatasetParams,
  status: 204,
  ...acct,
  summary: "Delete every partition of a dataset",
});

export const generateDataset = route({
  method: "POST",
  path: "/api/v1/account/:account_id/dataset/:dataset_id/generate",
  params: DatasetParams,
  body: z.strictObject({ kb_id: z.string().uuid(), rows_per_partition: z.number().int().min(1).max(1_000_000).default(10_000) }),
  response: z.object({ partitions: z.array(z.object({ id: z.string(), size: z.number().int(), rows: z.number().int() })) }),
  kb: { body: "kb_id" },
  role: "MANAGER",
  summary: "kbox: write the dataset's partitions from a knowledge box, filtered, in its type's shape (Arrow IPC or Parquet)",
});

/** Tasks on a dataset (the spec's dataset tasks): listed (none here), refused at start with why. */
const DatasetTaskParams = z.object({ dataset_id: z.string().uuid() });
const DatasetTaskIdParams = DatasetTaskParams.extend({ task_id: z.string() });

export const listDatasetTasks = route({
  method: "GET",
  path: "/api/v1/dataset/:dataset_id/tasks",
  params: DatasetTaskParams,
  query: z.object({ count: z.coerce.number().int().min(0).default(10) }),
  response: TaskList,
  ...acct,
  summary: "Tasks of a dataset: none run on datasets here (kbox runs tasks on knowledge boxes)",
});

export const startDatasetTask = route({
  method: "POST",
  path: "/api/v1/dataset/:dataset_id/task/start",
  params: DatasetTaskParams,
  body: z.object({ name: TaskName, parameters: z.record(z.string(), z.unknown()).nullable().optional() }).passthrough(),
  response: TaskResponse,
  ...acct,
  summary: "Start a task on a dataset: 422 saying why (run it on the knowledge box, then generate the dataset)",
});

export const inspectDatasetTask = route({
  method: "GET",
  path: "/api/v1/dataset/:dataset_id/task/:task_id/inspect",
  params: DatasetTaskIdParams,
  response: TaskRecord,
  ...acct,
  summary: "Inspect a dataset task (404: none exists here)",
});

export const stopDatasetTask = route({
  method: "POST",
  path: "/api/v1/dataset/:dataset_id/task/:task_id/stop",
  params: DatasetTaskIdParams,
  response: TaskResponse,
  ...acct,
  summary: "Stop a dataset task (404: none exists here)",
});

export const deleteDatasetTask = route({
  method: "DELETE",
  path: "/api/v1/dataset/:dataset_id/task/:task_id",
  params: DatasetTaskIdParams,
  ...acct,
  summary: "Delete a dataset task (404: none exists here)",
});
