import { z } from "zod";
import { FieldError, IntString, ResourceStatus, repeated } from "./common.js";
import { route } from "./route.js";

export const ProcessingStatusQuery = z.object({
  /** Opaque cursor from the previous page's `cursor`. */
  cursor: z.string().max(512).optional(),
  limit: IntString.pipe(z.number().int().min(1).max(1000)).default(100),
  /** Only resources in these statuses (repeatable). */
  status: repeated(ResourceStatus),
});
export type ProcessingStatusQuery = z.infer<typeof ProcessingStatusQuery>;

export const ProcessingField = z.object({
  field: z.string(),
  field_type: z.string(),
  field_id: z.string(),
  status: ResourceStatus,
  error: FieldError.optional(),
  /** A PENDING field that failed transiently and waits for its next attempt (EXPIRED at first_failure + the deadline). */
  retry: z.object({ attempts: z.number().int(), first_failure: z.string(), next_attempt: z.string() }).optional(),
});

/** One resource in the processing listing. */
export const ProcessingItem = z.object({
  resource_id: z.string(),
  kbid: z.string(),
  slug: z.string().optional(),
  title: z.string().optional(),
  status: ResourceStatus,
  /** Waiting in the queue, being processed now, or waiting for a retry. */
  scheduled: z.boolean(),
  running: z.boolean(),
  completed: z.boolean(),
  failed: z.boolean(),
  created: z.string(),
  modified: z.string(),
  fields: z.array(ProcessingField),
});
export type ProcessingItem = z.infer<typeof ProcessingItem>;

export const ProcessingStatus = z.object({
  /** The queue of this knowledge box: resources (and fields) waiting and running. */
  queue: z.object({
    pending: z.number().int(),
    running: z.number().int(),
    pending_fields: z.number().int(),
    running_fields: z.number().int(),
    /** Resources (and fields) waiting for a retry after a transient failure. */
    retrying: z.number().int().optional(),
    retrying_fields: z.number().int().optional(),
  }),
  /** Resources by status, over the whole knowledge box. */
  totals: z.record(z.string(), z.number().int()),
  results: z.array(ProcessingItem),
  cursor: z.string().nullable(),
});
export type ProcessingStatus = z.infer<typeof ProcessingStatus>;

export const processingStatus = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/processing-status",
  params: z.object({ kbid: z.string() }),
  query: ProcessingStatusQuery,
  response: ProcessingStatus,
  role: "READER",
  summary: "Processing queue state and per-resource processing status, paginated by cursor",
});
