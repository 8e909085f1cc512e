import type { TaskRecord } from "../../src/api/tasks.js";
import type { TaskDoc } from "../store/index.js";

/** A task as the wire shows it. */
export function taskRecord(d: TaskDoc, dataAugmentation: boolean): TaskRecord {
  return {
    id: d.id,
    task: { name: d.task, data_augmentation: dataAugmentation },
    source: "platform_db",
    kbid: d.kbid,
    account_id: d.account_id,
    user_id: d.user_id,
    parameters: d.parameters,
    apply: d.apply,
    enabled: d.enabled,
    status: d.status,
    timestamp: d.timestamp,
    defined_at: d.defined_at,
    scheduled: d.scheduled,
    completed: d.completed,
    stopped: d.stopped,
    failed: d.failed,
    scheduled_at: d.scheduled_at,
    completed_at: d.completed_at,
    stopped_at: d.stopped_at,
    retries: d.retries,
    method: d.method,
    progress: { done: d.done.length, total: d.total, new_data: d.handled_new },
    log: d.log.slice(-50),
    cleanup_parent_task_id: d.cleanup_parent_task_id,
    task_config_id: d.apply === "EXISTING" ? null : d.id,
  };
}

export const response = (d: TaskDoc) => ({ name: d.task, task: d.task, status: d.status, id: d.id });

/** A batch task over EXISTING data (ALL tasks have one too). */
export const hasBatch = (d: TaskDoc) => d.apply !== "NEW";
/** A task on NEW data (ALL tasks too). */
export const hasOngoing = (d: TaskDoc) => d.apply !== "EXISTING";
