import { askTask, syntheticQuestions } from "./generated.js";
import { llmGraph } from "./graph.js";
import { guardTask } from "./guard.js";
import { labeler } from "./labeler.js";
import { migrator } from "./migrator.js";
import type { TaskImpl } from "./types.js";

/** Why a task name of the spec does not run here (starting one answers 422 with this). */
export const UNSUPPORTED: Record<string, string> = {
  dummy: "dummy is the hosted service's test task; it does nothing here",
  env: "env reports the hosted worker's environment; there is no worker fleet here",
  "demo-dataset": "demo-dataset loads the hosted service's demo data, which is not shipped with kbox",
  "llm-align": "llm-align fine-tunes a hosted model; kbox trains no models",
  memory: "memory belongs to the hosted retrieval agents' sessions, which kbox does not run",
  "llama-guard": "llama-guard needs the hosted Llama Guard model; use guard-a or guard-b with guardrail policies",
  "prompt-guard": "prompt-guard needs the hosted Prompt Guard model; use guard-a or guard-b with guardrail policies",
};

/** The task implementations, by name; `resources` writes and deletes generated fields (the ask task). */
export function taskImpls(fields: {
  put: (kbid: string, rid: string, id: string, text: string) => Promise<void>;
  del: (kbid: string, rid: string, id: string) => Promise<void>;
}): Map<string, TaskImpl> {
  const list = [
    labeler,
    syntheticQuestions,
    askTask(fields.put, fields.del),
    migrator,
    llmGraph,
    guardTask("guard-a", labeler.cleanup),
    guardTask("guard-b", labeler.cleanup),
  ];
  return new Map(list.map((t) => [t.name, t]));
}
