/**
 * LearningService: a knowledge box's model configuration (learning configuration): read it as the
 * daemon applies it, change it with validation, list the models it may use, describe its schema.
 */
import { existsSync } from "node:fs";
import type { ValidationIssue } from "../../src/api/errors.js";
import type { LearningConfiguration } from "../../src/api/kbs.js";
import {
  type AvailableModel,
  type AvailableModels,
  type LearningConfigUpdate,
  learningConfigJsonSchema,
  type ModelConfiguration,
} from "../../src/api/learning.js";
import { conflict, invalid, KboxError } from "../errors.js";
import { type GeneratorSettings, ModelNameError, resolveGenerator } from "../models/generate/registry.js";
import { KNOWN_MODELS } from "../models/registry.js";
import type { KbDoc, KbStore } from "../store/index.js";
import { vectorColumn } from "../store/paragraphs.js";
import { effectiveConfiguration, resolveSemantic, type SemanticRef, unmaskKeys, vectorsetsOf } from "./learning-view.js";
import { type KbModelService, kbModelNames } from "./models.js";
import type { KbService } from "./service.js";

const SEMANTIC_KEYS = ["semantic_model", "semantic_models", "default_semantic_model"] as const;

const issue = (loc: (string | number)[], msg: string, input: unknown): ValidationIssue => ({
  type: "value_error",
  loc: ["body", ...loc],
  msg,
  input,
});

export class LearningService {
  constructor(
    private readonly kbs: KbService,
    private readonly models: KbModelService,
    private readonly generation: GeneratorSettings,
  ) {}

  /** The effective configuration without touching the KB's tables (for the KB record). */
  effective(kb: KbDoc): ModelConfiguration {
    return effectiveConfiguration(kb, this.models, this.generation);
  }

  /** The effective configuration with the number of vectors each vectorset holds. */
  async configuration(kbid: string): Promise<ModelConfiguration> {
    const { kb, store } = await this.kbs.open(kbid);
    return effectiveConfiguration(kb, this.models, this.generation, await vectorCounts(store));
  }

  /**
   * Change the configuration. `patch` merges members into the stored one, `replace` starts from the
   * defaults (semantic models are always kept unless given: they own the stored vectors).
   * Absent members are unchanged, null ones reset.
   */
  /** `untrusted`: a TCP caller, who may not point the box at a model file (docs/security.md). */
  async update(
    kbid: string,
    body: LearningConfigUpdate,
    mode: "patch" | "replace",
    opts: { untrusted?: boolean } = {},
  ): Promise<ModelConfiguration> {
    const { kb, store } = await this.kbs.open(kbid);
    const cur = (kb.learning_configuration ?? {}) as Record<string, unknown>;
    const next: Record<string, unknown> =
      mode === "patch" ? { ...cur } : Object.fromEntries(SEMANTIC_KEYS.filter((k) => k in cur).map((k) => [k, cur[k]]));
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      if (v === null) delete next[k];
      else next[k] = v;
    }
    if (body.user_keys) next.user_keys = unmaskKeys(body.user_keys, cur.user_keys);
    if (body.generative_model || body.user_keys) this.checkGenerative(next, opts.untrusted === true && !!body.generative_model);
    if (SEMANTIC_KEYS.some((k) => body[k] !== undefined)) await this.applySemantic(kb, store, body, next);
    const saved = await this.kbs.setLearningConfiguration(kb.uuid, next as LearningConfiguration);
    return effectiveConfiguration(saved, this.models, this.generation, await vectorCounts(store));
  }

  /** generative_model must name a generator the registry can build (a GGUF file must exist). */
  private checkGenerative(next: Record<string, unknown>, untrusted: boolean): void {
    const name = next.generative_model;
    if (typeof name !== "string") return;
    try {
      const g = resolveGenerator(name, {
        userKeys: next.user_keys as Record<string, unknown> | undefined,
        settings: this.generation,
      });
      // Before looking at the file: whether it exists, or its first bytes, are not a TCP caller's to learn.
      if (untrusted && g.kind === "gguf")
        throw new KboxError(403, "Only the socket's owner may point a knowledge box at a model file (gguf:)");
      const path = g.id.slice("gguf:".length);
      if (g.kind === "gguf" && !existsSync(path)) throw new ModelNameError(`no GGUF model file at ${path}`);
    } catch (e) {
      if (!(e instanceof ModelNameError)) throw e;
      throw invalid([issue(["generative_model"], e.message, name)]);
    }
  }

  /** Resolve and check the semantic members; a vectorset that holds vectors is never dropped or resized. */
  private async applySemantic(
    kb: KbDoc,
    store: KbStore,
    body: LearningConfigUpdate,
    next: Record<string, unknown>,
  ): Promise<void> {
    const given = body.semantic_models ?? (body.semantic_model ? [body.semantic_model] : undefined);
    const loc = body.semantic_models ? "semantic_models" : "semantic_model";
    const pinned = kbModelNames(kb);
    // A KB not pinned yet may name its model by default_semantic_model alone.
    const names = given ?? (pinned.length ? pinned : body.default_semantic_model ? [body.default_semantic_model] : []);
    const refs: SemanticRef[] = [];
    const issues: ValidationIssue[] = [];
    names.forEach((n, i) => {
      const r = resolveSemantic(this.models, n);
      if (!r)
        issues.push(
          issue(
            given ? (body.semantic_models ? [loc, i] : [loc]) : ["semantic_models"],
            `unknown semantic model ${JSON.stringify(n)}: install it (\`kbox models pull <id>\`) or configure an endpoint (\`kbox models add openai:<name> ...\`); GET /api/v1/kb/${kb.uuid}/models lists the choices`,
            n,
          ),
        );
      else if (refs.some((o) => o.vectorset === r.vectorset))
        issues.push(issue([loc, i], `semantic model ${n} appears twice (vectorset ${r.vectorset})`, n));
      else refs.push(r);
    });
    const wanted = body.default_semantic_model;
    const def = wanted ? resolveSemantic(this.models, wanted) : undefined;
    if (wanted && !refs.some((r) => r.name === def?.name)) {
      issues.push(
        issue(
          ["default_semantic_model"],
          `default_semantic_model must be one of the semantic models (${refs.map((r) => r.name).join(", ") || "none"})`,
          wanted,
        ),
      );
    }
    if (issues.length) throw invalid(issues);
    await this.checkVectors(kb, store, refs);
    delete next.semantic_model;
    next.semantic_models = refs.map((r) => r.name);
    const keep = next.default_semantic_model ? resolveSemantic(this.models, String(next.default_semantic_model)) : undefined;
    next.default_semantic_model = def?.name ?? (refs.some((r) => r.name === keep?.name) ? keep?.name : refs[0]?.name);
  }

  /** 409 when the new models would leave stored vectors without a model, or give a vectorset another dimension. */
  private async checkVectors(kb: KbDoc, store: KbStore, refs: SemanticRef[]): Promise<void> {
    const counts = await vectorCounts(store);
    const current = vectorsetsOf(this.models, kb);
    const columns = store.paragraphs.vectorColumns();
    for (const [col, n] of counts) {
      if (!n) continue;
      const dim = columns.get(col) ?? 0;
      const owner = current.find((v) => colName(v.id) === col)?.model ?? col;
      const repl = refs.find((r) => colName(r.vectorset) === col);
      if (repl && repl.dim && repl.dim !== dim) {
        throw conflict(
          `vectorset ${col} of this knowledge box holds ${n} vectors of ${dim} dims; ${repl.name} makes ${repl.dim}-dim vectors, so it cannot fill it. Use a model of ${dim} dims, or a new knowledge box.`,
        );
      }
      if (!repl) {
        const to = refs.find((r) => r.dim && r.dim !== dim);
        const what = to ? `switching to ${to.name} (${to.dim} dims)` : `switching to ${refs.map((r) => r.name).join(", ")}`;
        throw conflict(
          `this knowledge box holds ${n} vectors of ${owner} (${dim} dims); ${what} would leave them unsearchable. ` +
            `Add the new model as a second vectorset instead (semantic_models: ["${owner}", "${refs[0]?.name ?? "<model>"}"]) and make it the default_semantic_model, or create a new knowledge box.`,
        );
      }
    }
  }

  /** Models this knowledge box may use, grouped by provider. */
  available(kbid: string): AvailableModels {
    const kb = this.kbs.require(kbid);
    const inUse = new Set(vectorsetsOf(this.models, kb).map((v) => v.model));
    const gen = effectiveConfiguration(kb, this.models, this.generation).generative_model;
    const providers: Record<string, AvailableModel[]> = { onnx: [], openai: [], predict: [], extractive: [], gguf: [] };
    const add = (provider: string, m: AvailableModel) => {
      providers[provider] ??= [];
      providers[provider].push(m);
    };
    for (const e of this.models.entries().filter((x) => x.kind === "embedder")) {
      add(e.provider, {
        name: e.name,
        type: "semantic",
        description: e.remote ? `${e.remote.model ?? e.name} at ${e.remote.url}` : `ONNX, ${e.dim} dims`,
        installed: true,
        in_use: inUse.has(e.name),
        dim: e.dim || undefined,
      });
    }
    for (const k of KNOWN_MODELS.filter((x) => x.kind === "embedder" && !this.models.find(x.id))) {
      add("onnx", {
        name: k.id,
        type: "semantic",
        description: `${k.description}; \`kbox models pull ${k.id}\``,
        installed: false,
        in_use: inUse.has(k.id),
        dim: k.dim,
      });
    }
    const keys = (kb.learning_configuration?.user_keys ?? {}) as Record<string, { url?: string } | undefined>;
    add("extractive", {
      name: "extractive",
      type: "generative",
      description: "Offline: composes answers from the best-supported retrieved sentences",
      installed: true,
      in_use: gen === "extractive",
    });
    const openaiUrl = keys.openai?.url ?? this.generation.openaiBaseUrl;
    add("openai", {
      name: "openai:<model>[@<base url>]",
      type: "generative",
      description: `OpenAI-compatible chat completions${openaiUrl ? ` at ${openaiUrl}` : " (give @<base url>, user_keys.openai.url or KBOX_OPENAI_BASE_URL)"}`,
      installed: !!openaiUrl,
      in_use: false,
      template: true,
    });
    const zone = keys.predict?.url ?? this.generation.zoneUrl;
    add("predict", {
      name: "predict:<model>[@<zone url>]",
      type: "generative",
      description: `A zone's Predict Chat${zone ? ` at ${zone}` : " (give @<zone url>, user_keys.predict.url or KBOX_ZONE_URL)"}`,
      installed: !!zone,
      in_use: false,
      template: true,
    });
    add("gguf", {
      name: "gguf:<path>",
      type: "generative",
      description: "A local GGUF model run in-process (node-llama-cpp)",
      installed: true,
      in_use: false,
      template: true,
    });
    for (const name of new Set([this.generation.defaultModel, gen])) {
      if (name === "extractive") continue;
      const provider = /^(\w+):/.exec(name)?.[1] ?? (name.endsWith(".gguf") ? "gguf" : "openai");
      add(provider, {
        name,
        type: "generative",
        description: name === gen ? "Used by this knowledge box" : "Daemon default (KBOX_GENERATIVE_MODEL)",
        installed: true,
        in_use: name === gen,
      });
    }
    return { providers };
  }

  /** The JSON schema of an update, with the models this KB may use as examples. */
  schema(kbid: string): Record<string, unknown> {
    const avail = this.available(kbid).providers;
    const all = Object.values(avail).flat();
    const schema = learningConfigJsonSchema();
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const semantic = all.filter((m) => m.type === "semantic").map((m) => m.name);
    const generative = all.filter((m) => m.type === "generative").map((m) => m.name);
    if (props.semantic_models) props.semantic_models.examples = [semantic.slice(0, 2)];
    if (props.default_semantic_model) props.default_semantic_model.examples = semantic;
    if (props.semantic_model) props.semantic_model.deprecated = true;
    if (props.generative_model) props.generative_model.examples = generative;
    return { title: "Knowledge box model configuration", ...schema };
  }
}

const colName = (vectorset: string) => vectorColumn(vectorset).slice("vec_".length);

/** Paragraphs holding a vector, per vector column (named as ParagraphStore names them). */
async function vectorCounts(store: KbStore): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const col of store.paragraphs.vectorColumns().keys()) out.set(col, await store.paragraphs.countVectors(col));
  return out;
}
