/** An agent's configuration: workflows and their modules and rules, prompts, drivers (sealed at rest). */
import { randomUUID } from "node:crypto";
import {
  DRIVER_PROVIDERS,
  type Driver,
  MODULE_NAMES,
  type Module,
  type ModuleKind,
  type Prompt,
  type Workflow,
} from "../../src/api/agent-config.js";
import { conflict, invalid, KboxError, notFound } from "../errors.js";
import type { SecretBox } from "./secrets.js";
import {
  type Agent,
  AgentTables,
  DEFAULT_WORKFLOW,
  type DriverDoc,
  type ModuleDoc,
  newWorkflow,
  type PromptDoc,
  type Rule,
  type WorkflowDoc,
} from "./tables.js";

/** Config members that are secrets: stored sealed like the rest, never sent back. */
const SECRET = /^(key|api_key|password|token|secret|credentials|headers|dsn|env)$/i;

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

/** A driver's configuration with its secrets removed. */
export function stripSecrets(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !SECRET.test(k)));
}

/** Where a driver retrieves: a knowledge box of this daemon, or one behind a kbox / zone URL. */
export type DriverTarget =
  | { kind: "local"; kbid: string; top_k?: number; filters?: unknown; filter_expression?: unknown }
  | { kind: "remote"; url: string; kbid: string; key?: string; top_k?: number; filters?: unknown; filter_expression?: unknown };

/** Resolves a local knowledge box reference (id or slug) to its id, or throws 404. */
export type KbResolver = (ref: string) => string;

export class AgentConfigService {
  constructor(
    readonly tables: AgentTables,
    private readonly secrets: SecretBox,
  ) {}

  open(agentId: string): Promise<Agent> {
    return this.tables.open(agentId);
  }

  // Workflows

  async listWorkflows(agentId: string) {
    const a = await this.open(agentId);
    return [...a.workflows.values()]
      .sort((x, y) => (x.id === DEFAULT_WORKFLOW ? -1 : y.id === DEFAULT_WORKFLOW ? 1 : x.id.localeCompare(y.id)))
      .map(({ ruleList: _r, modules: _m, ...w }) => compact(w));
  }

  async addWorkflow(agentId: string, w: Workflow): Promise<{ id: string }> {
    const a = await this.open(agentId);
    if (a.workflows.has(w.id)) throw conflict(`Workflow ${w.id} already exists`);
    await a.workflows.put(w.id, { ...newWorkflow(w.id, w.name), ...compact(w), required: w.required ?? [] });
    return { id: w.id };
  }

  async setWorkflow(agentId: string, id: string, patch: Partial<Omit<Workflow, "id">>): Promise<void> {
    const a = await this.open(agentId);
    const w = AgentTables.workflow(a, id);
    await a.workflows.put(id, { ...w, ...compact(patch) });
  }

  async deleteWorkflow(agentId: string, id: string): Promise<void> {
    const a = await this.open(agentId);
    AgentTables.workflow(a, id);
    if (id === DEFAULT_WORKFLOW) throw new KboxError(409, "The default workflow is protected: it cannot be deleted");
    await a.workflows.delete(id);
  }

  // Rules

  async getRules(agentId: string, wf = DEFAULT_WORKFLOW): Promise<{ rules: Rule[] }> {
    return { rules: AgentTables.workflow(await this.open(agentId), wf).ruleList };
  }

  async setRules(agentId: string, rules: Rule[], wf = DEFAULT_WORKFLOW): Promise<void> {
    const a = await this.open(agentId);
    await a.workflows.put(wf, { ...AgentTables.workflow(a, wf), ruleList: rules });
  }

  // Modules

  private checkModule(kind: ModuleKind, m: Module): void {
    if (!MODULE_NAMES[kind].includes(m.module))
      throw invalid([
        {
          type: "value_error",
          loc: ["body", "module"],
          msg: `Unknown ${kind} module ${m.module}: one of ${MODULE_NAMES[kind].join(", ")}`,
          input: m.module,
        },
      ]);
  }

  async listModules(agentId: string, kind: ModuleKind, wf = DEFAULT_WORKFLOW): Promise<ModuleDoc[]> {
    return AgentTables.workflow(await this.open(agentId), wf).modules[kind];
  }

  async addModule(agentId: string, kind: ModuleKind, m: Module, wf = DEFAULT_WORKFLOW): Promise<{ id: string }> {
    const a = await this.open(agentId);
    const w = AgentTables.workflow(a, wf);
    this.checkModule(kind, m);
    const id = m.id ?? randomUUID().replace(/-/g, "");
    if (w.modules[kind].some((x) => x.id === id)) throw conflict(`Module ${id} already exists`);
    await a.workflows.put(wf, { ...w, modules: { ...w.modules, [kind]: [...w.modules[kind], { ...m, id }] } });
    return { id };
  }

  async patchModule(agentId: string, kind: ModuleKind, id: string, m: Module, wf = DEFAULT_WORKFLOW): Promise<void> {
    const a = await this.open(agentId);
    const w = AgentTables.workflow(a, wf);
    if (!w.modules[kind].some((x) => x.id === id)) throw notFound(`Module ${id} not found`);
    this.checkModule(kind, m);
    const list = w.modules[kind].map((x) => (x.id === id ? { ...m, id } : x));
    await a.workflows.put(wf, { ...w, modules: { ...w.modules, [kind]: list } });
  }

  async deleteModule(agentId: string, kind: ModuleKind, id: string, wf = DEFAULT_WORKFLOW): Promise<void> {
    const a = await this.open(agentId);
    const w = AgentTables.workflow(a, wf);
    if (!w.modules[kind].some((x) => x.id === id)) throw notFound(`Module ${id} not found`);
    await a.workflows.put(wf, { ...w, modules: { ...w.modules, [kind]: w.modules[kind].filter((x) => x.id !== id) } });
  }

  // Prompts

  async listPrompts(agentId: string): Promise<PromptDoc[]> {
    return [...(await this.open(agentId)).prompts.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async addPrompt(agentId: string, p: Prompt): Promise<{ id: string }> {
    const a = await this.open(agentId);
    const id = p.prompt_id ?? randomUUID().replace(/-/g, "");
    if (a.prompts.has(id)) throw conflict(`Prompt ${id} already exists`);
    await a.prompts.put(id, compact({ ...p, prompt_id: id }));
    return { id };
  }

  async getPrompt(agentId: string, id: string): Promise<PromptDoc> {
    const p = (await this.open(agentId)).prompts.get(id);
    if (!p) throw notFound(`Prompt ${id} not found`);
    return p;
  }

  async patchPrompt(agentId: string, id: string, patch: Partial<Prompt>): Promise<void> {
    const a = await this.open(agentId);
    const p = a.prompts.get(id);
    if (!p) throw notFound(`Prompt ${id} not found`);
    await a.prompts.put(id, { ...p, ...compact(patch), prompt_id: id });
  }

  async deletePrompt(agentId: string, id: string): Promise<void> {
    const a = await this.open(agentId);
    if (!a.prompts.has(id)) throw notFound(`Prompt ${id} not found`);
    await a.prompts.delete(id);
  }

  // Drivers

  /** 422 for a provider kbox cannot query, or a configuration that names no knowledge box it can reach. */
  private checkDriver(d: Pick<Driver, "provider" | "config">, resolveKb: KbResolver): Record<string, unknown> {
    const loc = (k: string) => ["body", "config", k];
    const bad = (l: (string | number)[], msg: string, input: unknown) => invalid([{ type: "value_error", loc: l, msg, input }]);
    if (!(DRIVER_PROVIDERS as readonly string[]).includes(d.provider))
      throw bad(
        ["body", "provider"],
        `kbox queries knowledge boxes only (providers ${DRIVER_PROVIDERS.join(", ")}): ${d.provider} needs a service this machine does not run`,
        d.provider,
      );
    const c = { ...d.config };
    const kbRef = c.kbid ?? c.kb;
    if (typeof kbRef !== "string" || !kbRef) throw bad(loc("kbid"), "The driver's knowledge box (kbid) is required", kbRef);
    if (d.provider === "local" || !c.url) {
      try {
        c.kbid = resolveKb(kbRef);
      } catch {
        throw bad(loc("kbid"), `No knowledge box ${kbRef} on this daemon (give url and key for another kbox or zone)`, kbRef);
      }
      delete c.kb;
      return c;
    }
    if (typeof c.url !== "string" || !/^https?:\/\//.test(c.url)) throw bad(loc("url"), "url must be an http(s) URL", c.url);
    return c;
  }

  private record(d: DriverDoc) {
    return { id: d.id, identifier: d.identifier, name: d.name, provider: d.provider, config: stripSecrets(this.config(d)) };
  }

  private config(d: DriverDoc): Record<string, unknown> {
    return this.secrets.open<Record<string, unknown>>(d.config);
  }

  async listDrivers(agentId: string) {
    const a = await this.open(agentId);
    return [...a.drivers.values()].sort((x, y) => x.name.localeCompare(y.name)).map((d) => this.record(d));
  }

  async addDriver(agentId: string, d: Driver, resolveKb: KbResolver): Promise<{ id: string }> {
    const a = await this.open(agentId);
    const id = d.id ?? randomUUID().replace(/-/g, "");
    if (a.drivers.has(id)) throw conflict(`Driver ${id} already exists`);
    if ([...a.drivers.values()].some((x) => x.identifier === d.identifier))
      throw conflict(`A driver with identifier ${d.identifier} already exists`);
    const config = this.checkDriver(d, resolveKb);
    await a.drivers.put(id, {
      id,
      identifier: d.identifier,
      name: d.name,
      provider: d.provider,
      config: this.secrets.seal(config),
    });
    return { id };
  }

  async patchDriver(agentId: string, id: string, patch: Partial<Driver>, resolveKb: KbResolver): Promise<void> {
    const a = await this.open(agentId);
    const old = a.drivers.get(id);
    if (!old) throw notFound(`Driver ${id} not found`);
    // Secrets left out of the patch keep their value (lists never show them).
    const merged = { ...this.config(old), ...(patch.config ?? {}) };
    const provider = patch.provider ?? old.provider;
    const config = this.checkDriver({ provider, config: merged }, resolveKb);
    await a.drivers.put(id, {
      id,
      identifier: patch.identifier ?? old.identifier,
      name: patch.name ?? old.name,
      provider,
      config: this.secrets.seal(config),
    });
  }

  async deleteDriver(agentId: string, id: string): Promise<void> {
    const a = await this.open(agentId);
    if (!a.drivers.has(id)) throw notFound(`Driver ${id} not found`);
    await a.drivers.delete(id);
  }

  /** Every driver with its configuration opened (interaction and export only; never sent to a client as is). */
  driversOpen(a: Agent): (Omit<DriverDoc, "config"> & { config: Record<string, unknown> })[] {
    return [...a.drivers.values()].map((d) => ({ ...d, config: this.config(d) }));
  }

  /** Where a driver retrieves. */
  static target(config: Record<string, unknown>): DriverTarget {
    const common = {
      kbid: String(config.kbid),
      top_k: typeof config.top_k === "number" ? config.top_k : undefined,
      filters: config.filters,
      filter_expression: config.filter_expression,
    };
    if (typeof config.url === "string" && config.url)
      return { kind: "remote", url: config.url, key: typeof config.key === "string" ? config.key : undefined, ...common };
    return { kind: "local", ...common };
  }

  /** A new whole configuration (import): workflows, prompts and drivers replaced. */
  async replaceAll(
    a: Agent,
    c: {
      workflows: WorkflowDoc[];
      prompts: PromptDoc[];
      drivers: (Omit<DriverDoc, "config"> & { config: Record<string, unknown> })[];
    },
  ): Promise<void> {
    for (const w of [...a.workflows.values()]) await a.workflows.delete(w.id);
    for (const p of [...a.prompts.values()]) await a.prompts.delete(p.prompt_id);
    for (const d of [...a.drivers.values()]) await a.drivers.delete(d.id);
    for (const w of c.workflows) await a.workflows.put(w.id, w);
    if (!a.workflows.has(DEFAULT_WORKFLOW)) await a.workflows.put(DEFAULT_WORKFLOW, newWorkflow(DEFAULT_WORKFLOW, "Default"));
    for (const p of c.prompts) await a.prompts.put(p.prompt_id, p);
    for (const d of c.drivers) await a.drivers.put(d.id, { ...d, config: this.secrets.seal(d.config) });
  }
}
