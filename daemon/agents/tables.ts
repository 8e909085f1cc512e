/** What an agent keeps (in its own knowledge box's database) and the gate every agent route goes through. */

import type { DownloadRequest } from "../../src/api/agent-audit.js";
import type { Module, ModuleKind, Prompt } from "../../src/api/agent-config.js";
import type { ChatTurn, SessionBody } from "../../src/api/agents.js";
import { notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { PerKb } from "../search/configs.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbDoc } from "../store/index.js";
import type { Sealed } from "./secrets.js";

export type Rule = string | { prompt: string };
export type ModuleDoc = Module & { id: string };

export interface WorkflowDoc {
  id: string;
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  rules?: unknown;
  required: string[];
  /** The rules routes' list (string or {prompt}); the answer's prompt states them. */
  ruleList: Rule[];
  modules: Record<ModuleKind, ModuleDoc[]>;
}

export type PromptDoc = Prompt & { prompt_id: string };

export interface DriverDoc {
  id: string;
  identifier: string;
  name: string;
  provider: string;
  /** The configuration, sealed with the daemon's agent key (secrets/agents.key). */
  config: Sealed;
}

export interface HistoryTurn extends ChatTurn {
  at: string;
  workflow_id: string;
  rephrased?: string;
}

export interface SessionDoc extends SessionBody {
  id: string;
  created: string;
  modified: string;
  history: HistoryTurn[];
}

/** One interaction, as the audit download lists it. */
export interface InteractionDoc {
  id: string;
  session_id: string;
  workflow_id: string;
  question: string;
  rephrased: string;
  answer: string;
  drivers: string[];
  generator: string;
  at: string;
  seconds: number;
  who: string;
}

/** An export of the agent's configuration, encrypted with the user's passphrase (kept until `expires`). */
export interface ExportDoc {
  id: string;
  /** The encrypted bytes, base64. */
  data: string;
  created: string;
  expires: string;
}

export const DEFAULT_WORKFLOW = "default";
const noModules = (): Record<ModuleKind, ModuleDoc[]> => ({ preprocess: [], context: [], generation: [], postprocess: [] });

export function newWorkflow(id: string, name: string): WorkflowDoc {
  return { id, name, required: [], ruleList: [], modules: noModules() };
}

/** An opened agent: its record and its tables. */
export interface Agent {
  kb: KbDoc;
  workflows: DocTable<WorkflowDoc>;
  prompts: DocTable<PromptDoc>;
  drivers: DocTable<DriverDoc>;
  sessions: DocTable<SessionDoc>;
  interactions: DocTable<InteractionDoc>;
  downloads: DocTable<DownloadRequest>;
  exports: DocTable<ExportDoc>;
}

/** Opens agents: a knowledge box of mode agent (or agent_no_memory), else the wire's 404. */
export class AgentTables {
  private readonly t = {
    workflows: new PerKb<WorkflowDoc>("agent_workflows"),
    prompts: new PerKb<PromptDoc>("agent_prompts"),
    drivers: new PerKb<DriverDoc>("agent_drivers"),
    sessions: new PerKb<SessionDoc>("agent_sessions"),
    interactions: new PerKb<InteractionDoc>("agent_interactions"),
    downloads: new PerKb<DownloadRequest>("agent_downloads"),
    exports: new PerKb<ExportDoc>("agent_exports"),
  };
  constructor(readonly kbs: KbService) {}

  async open(agentId: string): Promise<Agent> {
    const { kb, store } = await this.kbs.open(agentId, "Retrieval agent not found");
    if (!kb.mode) throw notFound("Retrieval agent not found: this knowledge box is not an agent");
    const [workflows, prompts, drivers, sessions, interactions, downloads, exports] = await Promise.all([
      this.t.workflows.get(store),
      this.t.prompts.get(store),
      this.t.drivers.get(store),
      this.t.sessions.get(store),
      this.t.interactions.get(store),
      this.t.downloads.get(store),
      this.t.exports.get(store),
    ]);
    if (!workflows.has(DEFAULT_WORKFLOW)) await workflows.put(DEFAULT_WORKFLOW, newWorkflow(DEFAULT_WORKFLOW, "Default"));
    return { kb, workflows, prompts, drivers, sessions, interactions, downloads, exports };
  }

  /** A workflow of the agent, or 404. */
  static workflow(a: Agent, id: string): WorkflowDoc {
    const w = a.workflows.get(id);
    if (!w) throw notFound(`Workflow ${id} not found`);
    return w;
  }
}
