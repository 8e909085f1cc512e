/** Agentic configurations: stored per knowledge box, and applied to an ask that names one. */
import type { AgenticConfig, LlmConfig } from "../../src/api/agentic-configs.js";
import type { AskBody } from "../../src/api/ask.js";
import type { Source } from "../../src/api/sources.js";
import { badRequest, conflict, invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import { type GeneratorSettings, ModelNameError, resolveGenerator } from "../models/generate/registry.js";
import { PerKb } from "../search/configs.js";
import type { KbDoc } from "../store/index.js";
import { compact, type SourceService } from "./sources.js";

type Stored = { id: string; config: AgenticConfig };

/** What an agentic configuration's rephrase section asks of an ask. */
export interface RephraseWith {
  /** The prompt, `{question}` (and `{history}`) filled in; undefined: the built-in one. */
  prompt?: string;
  /** The model that rephrases; undefined: the answer's model. */
  model?: string;
  /** Show the chat history to the rephrasing model (default true). */
  history: boolean;
}

/** An ask body with a configuration applied, and how to rephrase. */
export interface Applied {
  body: AskBody;
  rephrase?: RephraseWith;
  /** summarize.history false: the answering model does not see the chat history (rephrasing still may). */
  hideHistory?: boolean;
}

/**
 * Apply a configuration over a request: its parameters win. summarize sets the prompt (system, user)
 * and the answer's model (else smart_agent's executor model); summarize.history false keeps the chat
 * history from the model; smart_agent.extra_prompt is added to the system prompt; a rephrase section
 * turns rephrasing on, with its prompt, model and history flag.
 */
export function applyAgentic(body: AskBody, c: AgenticConfig): Applied {
  const out: AskBody = { ...body };
  const s = c.summarize;
  const custom = typeof body.prompt === "string" ? { user: body.prompt } : { ...(body.prompt ?? {}) };
  if (s?.system_prompt) custom.system = s.system_prompt;
  if (s?.user_prompt) custom.user = s.user_prompt;
  const extra = c.smart_agent?.extra_prompt;
  if (extra) custom.system = `${custom.system ?? ""}${custom.system ? "\n\n" : ""}${extra}`;
  if (custom.system || custom.user) out.prompt = custom;
  const model = s?.model?.model_id ?? c.smart_agent?.models?.executor?.model_id;
  if (model) out.generative_model = model;
  const hideHistory = s?.history === false ? true : undefined;
  if (!c.rephrase) return { body: out, hideHistory };
  out.rephrase = true;
  return {
    body: out,
    hideHistory,
    rephrase: {
      prompt: c.rephrase.prompt ?? undefined,
      model: c.rephrase.model?.model_id,
      history: c.rephrase.history !== false,
    },
  };
}

/** Create, read, update, delete and list agentic configurations; check the models they name. */
export class AgenticConfigService {
  private readonly tables = new PerKb<Stored>("agentic_configs");

  constructor(
    private readonly kbs: KbService,
    private readonly generation: GeneratorSettings,
    /** The sources `smart_agent.sources` may name. */
    readonly sources: SourceService,
  ) {}

  private async open(kbid: string) {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    return { kb, table: await this.tables.get(store) };
  }

  /** 422 for a model kbox cannot resolve, or a source the knowledge box does not have. */
  private async validate(kb: KbDoc, c: AgenticConfig): Promise<AgenticConfig> {
    const models: [string[], LlmConfig | null | undefined][] = [
      [["rephrase", "model"], c.rephrase?.model],
      [["summarize", "model"], c.summarize?.model],
      ...(["context_validation", "planner", "executor"] as const).map((k): [string[], LlmConfig | null | undefined] => [
        ["smart_agent", "models", k],
        c.smart_agent?.models?.[k],
      ]),
    ];
    const lc = kb.learning_configuration;
    for (const [loc, m] of models) {
      if (!m) continue;
      try {
        resolveGenerator(m.model_id, { userKeys: lc?.user_keys as Record<string, unknown>, settings: this.generation });
      } catch (e) {
        if (!(e instanceof ModelNameError)) throw e;
        throw invalid([{ type: "value_error", loc: ["body", ...loc, "model_id"], msg: e.message, input: m.model_id }]);
      }
    }
    const sources = c.smart_agent?.sources ?? [];
    for (const [i, id] of sources.entries())
      if (!(await this.sources.find(kb.uuid, id)))
        throw invalid([
          { type: "value_error", loc: ["body", "smart_agent", "sources", i], msg: `Unknown source ${id}`, input: id },
        ]);
    return compact(c);
  }

  async create(kbid: string, id: string, c: AgenticConfig): Promise<void> {
    const { kb, table } = await this.open(kbid);
    if (table.has(id)) throw conflict(`Agentic configuration ${id} already exists`);
    await table.put(id, { id, config: await this.validate(kb, c) });
  }

  async update(kbid: string, id: string, patch: AgenticConfig): Promise<void> {
    const { kb, table } = await this.open(kbid);
    const old = table.get(id);
    if (!old) throw notFound(`Agentic configuration ${id} not found`);
    const merged: Record<string, unknown> = { ...old.config };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete merged[k];
      else if (v !== undefined) merged[k] = v;
    }
    await table.put(id, { id, config: await this.validate(kb, merged as AgenticConfig) });
  }

  async delete(kbid: string, id: string): Promise<void> {
    const { table } = await this.open(kbid);
    if (!table.has(id)) throw notFound(`Agentic configuration ${id} not found`);
    await table.delete(id);
  }

  /** Delete a source and every configuration whose `smart_agent.sources` names it. */
  async deleteSource(kbid: string, sourceId: string): Promise<void> {
    const { table } = await this.open(kbid);
    await this.sources.get(kbid, sourceId);
    for (const c of [...table.values()]) if (c.config.smart_agent?.sources?.includes(sourceId)) await table.delete(c.id);
    await this.sources.delete(kbid, sourceId);
  }

  async get(kbid: string, id: string): Promise<AgenticConfig> {
    const c = (await this.open(kbid)).table.get(id);
    if (!c) throw notFound(`Agentic configuration ${id} not found`);
    return c.config;
  }

  async list(kbid: string): Promise<Record<string, AgenticConfig>> {
    const all = [...(await this.open(kbid)).table.values()].sort((a, b) => a.id.localeCompare(b.id));
    return Object.fromEntries(all.map((c) => [c.id, c.config]));
  }

  /** The configuration an ask names; an unknown id is the request's fault (400, as an unknown search configuration). */
  async forRequest(kbid: string, id: string): Promise<AgenticConfig> {
    const c = (await this.open(kbid)).table.get(id);
    if (!c) throw badRequest(`Agentic configuration ${id} not found`);
    return c.config;
  }

  /** The sources a configuration names, with their ids (a source deleted meanwhile took the configuration along). */
  async sourcesOf(kbid: string, c: AgenticConfig): Promise<[string, Source][]> {
    const out: [string, Source][] = [];
    for (const id of c.smart_agent?.sources ?? []) {
      const s = await this.sources.find(kbid, id);
      if (s) out.push([id, s]);
    }
    return out;
  }
}
