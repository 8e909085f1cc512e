import { z } from "zod";
import { route } from "./route.js";

export const TrainingType = z.enum(["classifier", "resource-labeler", "paragraph-labeler", "ner"]);
const TypeParams = z.object({ kbid: z.string(), type: TrainingType });

export const Execution = z.object({
  id: z.string(),
  task: z.string(),
  start: z.string(),
  end: z.string().nullable(),
  status: z.string(),
});

/** The JS SDK's training status: the task, its status, and its last execution. */
export const TrainingStatus = z.object({
  task: z.string(),
  status: z.enum(["finished", "not_running", "running", "started", "stopped"]),
  last_execution: Execution.omit({ id: true, task: true }).optional(),
});

export const startTraining = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/train/:type/start",
  params: TypeParams,
  body: z
    .object({ valid_nertags: z.array(z.string()).optional(), valid_labelsets: z.array(z.string()).optional() })
    .passthrough(),
  response: TrainingStatus,
  role: "WRITER",
  summary: "Train a local term model (multinomial naive Bayes over the labelled texts, or an entity gazetteer for ner)",
});

export const stopTraining = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/train/:type/stop",
  params: TypeParams,
  body: z.object({}).passthrough().optional(),
  response: TrainingStatus,
  role: "WRITER",
  summary: "Stop a training (local trainings finish within their start request: nothing is left to stop)",
});

export const trainingStatus = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/train/:type/inspect",
  params: TypeParams,
  response: TrainingStatus,
  role: "READER",
  summary: "The status of a training type and its last execution",
});

export const trainingExecutions = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/train/executions",
  params: z.object({ kbid: z.string() }),
  query: z.object({ page: z.coerce.number().int().min(0).optional() }),
  response: z.object({
    items: z.array(Execution),
    pagination: z.object({ page: z.number().int(), size: z.number().int(), last: z.boolean() }),
  }),
  role: "READER",
  summary: "Training executions, newest first",
});

export const trainedModel = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/train/:type/model/model/nuclia.json",
  params: TypeParams,
  response: z.record(z.string(), z.unknown()),
  role: "READER",
  summary: "The trained model of a type (404 when none was trained)",
});
