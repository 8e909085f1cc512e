/** Records of background work: tasks on knowledge boxes, datasets and their partitions, guardrail policies. */

/** Which data a task runs on: what a knowledge box holds now, what is processed later, or both. */
export type TaskApply = "EXISTING" | "NEW" | "ALL";

/** A task on a knowledge box, durable: a running one resumes after a restart where it stopped. */
export interface TaskDoc {
  id: string;
  task: string;
  kbid: string;
  account_id: string;
  user_id: string;
  parameters: Record<string, unknown>;
  apply: TaskApply;
  /** NEW and ALL tasks: whether resources processed from now on are handed to it. */
  enabled: boolean;
  /** not_running, scheduled, running, completed, stopped, failed */
  status: string;
  timestamp: string;
  defined_at: string;
  scheduled: boolean;
  completed: boolean;
  stopped: boolean;
  failed: boolean;
  scheduled_at: string | null;
  completed_at: string | null;
  stopped_at: string | null;
  retries: number;
  /** How the work is done: the generative model used, or the offline method (said in every record). */
  method: string;
  /** Resources of the batch already handled (the resume point), and how many there were. */
  done: string[];
  total: number;
  /** NEW data: resources handled since the task was defined. */
  handled_new: number;
  /**
   * NEW data: resources processed from this time on (`processed_at`) are checked against the offers
   * journal at start and now and then; absent: `defined_at`. Enabling sets it to the time of enabling.
   */
  new_mark?: string;
  log: string[];
  cleanup_parent_task_id: string | null;
}

/**
 * A processed resource handed to a NEW-data task (meta table `task_offers`): written before the job is
 * queued and marked `done` once it ran, so a daemon killed in between hands it over again; a resource
 * processed after the task's `new_mark` with no row for that processing (`processed_at`) was missed.
 */
export interface TaskOfferDoc {
  /** `{task_id}/{rid}` */
  id: string;
  task_id: string;
  kbid: string;
  rid: string;
  at: string;
  /** The resource's `processed_at` this hand-over is for (absent on rows from before it was kept). */
  processed_at?: string;
  /** The task ran on it; the row stays until the task's mark passes that processing. */
  done?: boolean;
}

/** What one task wrote on one resource, so that a delete with cleanup removes exactly that. */
export interface TaskOutputDoc {
  /** `{task_id}/{rid}` */
  id: string;
  task_id: string;
  rid: string;
  /** Paragraph labels added, by paragraph id (`/l/{labelset}/{label}`). */
  paragraph_labels?: Record<string, string[]>;
  /** Field classifications added, by field key (`t/body`). */
  field_labels?: Record<string, { labelset: string; label: string }[]>;
  /** Fields whose extracted data got question_answers. */
  qa_fields?: string[];
  /** Generated text fields created (`{field id}`). */
  generated_fields?: string[];
  /** Relations added to the resource (their `metadata.da_task` marks them too). */
  relations?: number;
}

export type DatasetType =
  | "FIELD_CLASSIFICATION"
  | "PARAGRAPH_CLASSIFICATION"
  | "SENTENCE_CLASSIFICATION"
  | "TOKEN_CLASSIFICATION"
  | "IMAGE_CLASSIFICATION"
  | "PARAGRAPH_STREAMING"
  | "QUESTION_ANSWER_STREAMING"
  | "FIELD_STREAMING";

export interface DatasetDoc {
  id: string;
  account_id: string;
  name: string;
  type: DatasetType;
  filter: Record<string, unknown>;
  created: string;
  /** Partition ids with their size in bytes. */
  partitions: Record<string, number>;
  /** How generated partitions are written (absent: ARROW, datasets from before formats). */
  format?: "ARROW" | "PARQUET";
  /** The knowledge box it was last generated from. */
  generated_from?: string;
}

export interface GuardrailPolicyDoc {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  instruction: string;
  query: string;
  target: "QUERY";
  enabled: boolean;
  blocking: boolean;
  created_at: string;
  updated_at: string;
}
