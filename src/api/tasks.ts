import { z } from "zod";
import { route } from "./route.js";

export const TASK_NAMES = [
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
] as const;
export const TaskName = z.enum(TASK_NAMES);

export const TaskApply = z.enum(["EXISTING", "NEW", "ALL"]);

const KbParams = z.object({ kb_uuid: z.string() });
const TaskParams = z.object({ kb_uuid: z.string(), task_id: z.string() });

/** A task as stored and inspected (batch and ongoing members in one record). */
export const TaskRecord = z
  .object({
    id: z.string(),
    task: z.object({ name: z.string(), data_augmentation: z.boolean() }),
    source: z.string(),
    kbid: z.string(),
    account_id: z.string(),
    user_id: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    apply: TaskApply,
    enabled: z.boolean(),
    status: z.string(),
    timestamp: z.string(),
    defined_at: z.string(),
    scheduled: z.boolean(),
    completed: z.boolean(),
    stopped: z.boolean(),
    failed: z.boolean(),
    scheduled_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    stopped_at: z.string().nullable(),
    retries: z.number().int(),
    /** kbox: the model the task uses, or the offline method it falls back to. */
    method: z.string(),
    /** kbox: resources of the batch done and to do; resources processed since, for NEW data (and still to run on). */
    progress: z.object({
      done: z.number().int(),
      total: z.number().int(),
      new_data: z.number().int(),
      new_pending: z.number().int().optional(),
    }),
    log: z.array(z.string()),
    cleanup_parent_task_id: z.string().nullable(),
    task_config_id: z.string().nullable(),
  })
  .passthrough();
export type TaskRecord = z.infer<typeof TaskRecord>;

/** What start, stop and restart answer (`task` beside `name`, as the JS SDK reads it). */
export const TaskResponse = z.object({ name: z.string(), task: z.string(), status: z.string(), id: z.string() });

export const TaskDefinition = z.object({
  name: z.string(),
  data_augmentation: z.boolean(),
  description: z.string(),
  can_cleanup: z.boolean(),
  /** kbox: false for the names this daemon cannot run (starting one answers 422 saying why). */
  supported: z.boolean(),
  validation: z.record(z.string(), z.unknown()),
});

export const TaskList = z.object({
  tasks: z.array(TaskDefinition),
  running: z.array(TaskRecord),
  configs: z.array(TaskRecord),
  done: z.array(TaskRecord),
});

export const StartTask = z.strictObject({
  name: TaskName,
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Start again from an already configured task (its parameters, unless given). */
  uuid_task: z.string().nullable().optional(),
  apply: TaskApply.default("ALL"),
  /** Only for NEW data: whether resources processed from now on are handed to the task. */
  enabled: z.boolean().nullable().optional(),
});
export type StartTask = z.infer<typeof StartTask>;

const role = "WRITER" as const;

export const listTasks = route({
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/tasks",
  params: KbParams,
  query: z.object({ count: z.coerce.number().int().min(0).max(1000).optional() }),
  response: TaskList,
  role: "READER",
  summary: "Available tasks, running batch tasks, ongoing (NEW data) tasks, and the latest finished ones",
});

export const startTask = route({
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/start",
  params: KbParams,
  body: StartTask,
  response: TaskResponse,
  role,
  summary: "Start a task on EXISTING data, NEW data, or ALL",
});

export const patchTask = route({
  method: "PATCH",
  path: "/api/v1/kb/:kb_uuid/task/:task_id",
  params: TaskParams,
  body: z.strictObject({ parameters: z.record(z.string(), z.unknown()) }),
  response: TaskRecord,
  role,
  summary: "Change a NEW-data task's parameters (409 for a task on EXISTING data only)",
});

export const deleteTask = route({
  method: "DELETE",
  path: "/api/v1/kb/:kb_uuid/task/:task_id",
  params: TaskParams,
  query: z.object({ cleanup: z.preprocess((v) => v === "true" || v === true, z.boolean()).optional() }),
  response: z.object({}),
  role,
  summary: "Delete a task (stopping it); cleanup=true also removes what it wrote",
});

export const cleanupTask = route({
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/cleanup",
  params: TaskParams,
  body: z.object({}).passthrough().optional(),
  response: z.object({ request: TaskRecord.optional(), config: TaskRecord.optional() }),
  role,
  summary: "Remove what a task wrote, keeping the task",
});

export const enableTask = route({
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/enable",
  params: TaskParams,
  body: z.strictObject({ enabled: z.boolean() }),
  response: z.object({}),
  role,
  summary: "Enable or disable a NEW-data task (409 for a task on EXISTING data only)",
});

export const inspectTask = route({
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/inspect",
  params: TaskParams,
  response: z.object({ request: TaskRecord.optional(), config: TaskRecord.optional() }),
  role: "READER",
  summary: "A task: `request` for its batch over EXISTING data, `config` for its NEW-data part",
});

export const restartTask = route({
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/restart",
  params: TaskParams,
  body: z.object({}).passthrough().optional(),
  response: TaskResponse,
  role,
  summary: "Run an EXISTING-data task again from the start (409 for a NEW-data task)",
});

export const stopTask = route({
  method: "POST",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/stop",
  params: TaskParams,
  body: z.object({}).passthrough().optional(),
  response: TaskResponse,
  role,
  summary: "Stop a running EXISTING-data task (409 for a NEW-data task or one not running)",
});

export const taskWorker = route({
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/task/:task_id/worker_config",
  params: TaskParams,
  response: TaskRecord,
  role: "READER",
  summary: "The task worker record: what the runner works from",
});

export const Asset = z.object({
  id: z.string(),
  task_id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  created: z.string(),
});

export const listAssets = route({
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/assets",
  params: KbParams,
  response: z.object({ assets: z.array(Asset) }),
  role: "READER",
  summary: "Files tasks produced for this knowledge box, newest first",
});

export const getAsset = route({
  method: "GET",
  path: "/api/v1/kb/:kb_uuid/assets/:asset_id",
  params: z.object({ kb_uuid: z.string(), asset_id: z.string() }),
  response: z.object({ url: z.string() }),
  role: "READER",
  summary: "A signed download URL for an asset (valid one hour)",
});

export const downloadAsset = route({
  method: "GET",
  path: "/api/v1/task-assets/:token",
  params: z.object({ token: z.string() }),
  scope: "public",
  summary: "Download an asset by its signed URL",
});
