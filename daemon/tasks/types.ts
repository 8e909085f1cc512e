/** What a task implementation is given and what it provides (daemon/tasks/registry.ts lists them). */
import type { GuardrailService } from "../guardrails/service.js";
import type { LearningService } from "../kbs/learning.js";
import type { KbModelService } from "../kbs/models.js";
import type { Generator } from "../models/generate/types.js";
import type { KbDoc, KbStore, TaskDoc, TaskOutputDoc } from "../store/index.js";

/** Collaborators tasks use. */
export interface TaskDeps {
  models: KbModelService;
  learning: LearningService;
  guardrails: Pick<GuardrailService, "list" | "generator">;
}

/** One run of a task on a knowledge box. */
export interface TaskContext {
  task: TaskDoc;
  kb: KbDoc;
  store: KbStore;
  /** The generative model, when the task has one to use (else the offline method). */
  generator?: Generator;
  deps: TaskDeps;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Save a file for the knowledge box's assets list. */
  asset: (name: string, contentType: string, data: Buffer) => Promise<void>;
}

/** What a task wrote on one resource (undefined: nothing). */
export type TaskOutput = Omit<TaskOutputDoc, "id" | "task_id" | "rid">;

export interface TaskImpl {
  name: string;
  description: string;
  dataAugmentation: boolean;
  canCleanup: boolean;
  /** A JSON schema of the parameters (the available-tasks listing shows it). */
  validation: Record<string, unknown>;
  /** Which `apply` values make sense (the migrator runs once, on EXISTING data). */
  applies: readonly ("EXISTING" | "NEW" | "ALL")[];
  /** Check parameters: throws the wire's 422 (located under body.parameters). */
  check(params: Record<string, unknown>): void;
  /** Whether the task uses a generative model: the method said in the task record. */
  usesModel: boolean;
  /** The method without a model (`offline:…`); an ask task keeps the extractive answerer as its generator. */
  offlineMethod: string;
  /** Before the first resource of a batch (the migrator adds its vectorset). */
  prepare?(ctx: TaskContext): Promise<void>;
  run(ctx: TaskContext, rid: string): Promise<TaskOutput | undefined>;
  /** After the last resource of a batch (the migrator switches the default). */
  finish?(ctx: TaskContext): Promise<void>;
  /** Remove what `run` wrote on one resource. */
  cleanup?(ctx: Omit<TaskContext, "generator">, out: TaskOutputDoc): Promise<void>;
}
