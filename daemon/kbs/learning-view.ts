/**
 * The effective model configuration of a knowledge box: what it stores, filled in with what the
 * daemon would use (default embedder, default generator), and whether semantic search works.
 */
import type { ModelConfiguration, VectorsetInfo } from "../../src/api/learning.js";
import type { GeneratorSettings } from "../models/generate/registry.js";
import { knownModel, shortName } from "../models/registry.js";
import type { KbDoc } from "../store/index.js";
import { type KbModelService, kbModelNames } from "./models.js";

/** A semantic model name resolved against this daemon. */
export interface SemanticRef {
  name: string;
  vectorset: string;
  dim: number;
  installed: boolean;
}

/** Resolve a user-written semantic model: installed or configured entries first, then models kbox can pull. */
export function resolveSemantic(models: KbModelService, ref: string): SemanticRef | undefined {
  const e = models.find(ref);
  if (e) return { name: e.name, vectorset: e.vectorset, dim: e.dim, installed: true };
  const k = knownModel(ref);
  if (k?.kind === "embedder") return { name: k.id, vectorset: shortName(k.id), dim: k.dim, installed: false };
  return undefined;
}

/** A name stored in a configuration that this daemon does not know (a removed endpoint, a typo made elsewhere). */
function unresolved(ref: string): SemanticRef {
  return { name: ref, vectorset: shortName(ref.replace(/^(openai|predict|onnx):/, "")), dim: 0, installed: false };
}

/** The vectorsets of a knowledge box: its named models, else the daemon default it would be pinned to. */
export function vectorsetsOf(models: KbModelService, kb: KbDoc): VectorsetInfo[] {
  const names = kbModelNames(kb);
  if (!names.length)
    return models.vectorsets(kb).map((v) => ({ id: v.id, model: v.model, dim: v.dim, default: true, installed: true }));
  const refs = names.map((n) => resolveSemantic(models, n) ?? unresolved(n));
  const want = kb.learning_configuration?.default_semantic_model;
  const wantRef = want ? (resolveSemantic(models, want) ?? unresolved(want)) : refs[0];
  const defIdx = Math.max(
    0,
    refs.findIndex((r) => r.name === wantRef.name),
  );
  return refs.map((r, i) => ({ id: r.vectorset, model: r.name, dim: r.dim, default: i === defIdx, installed: r.installed }));
}

/** How to get a model this daemon lacks, as a command. */
function installHint(model: string): string {
  if (/^(openai|predict):/.test(model))
    return `\`kbox models add ${model} --url <endpoint>${model.startsWith("openai:") ? " --model <model>" : ""}\``;
  return `\`kbox models pull ${shortName(model)}\``;
}

export const NO_MODEL_NOTICE =
  "No embedding model is installed: this knowledge box is indexed and searched by keywords only. " +
  "Run `kbox models pull bge-small-en-v1.5` (or `multilingual-e5-small`), or `kbox models add openai:<name> --url <endpoint> --model <model>`; " +
  "resources added or reprocessed afterwards are embedded.";

/** Is semantic search on, and if not (or not fixed yet), what to tell people. */
export function semanticState(kb: KbDoc, vs: VectorsetInfo[]): Pick<ModelConfiguration, "semantic_search" | "notice"> {
  const def = vs.find((v) => v.default);
  if (!def) return { semantic_search: "keyword_only", notice: NO_MODEL_NOTICE };
  if (!def.installed) {
    return {
      semantic_search: "keyword_only",
      notice: `The semantic model ${def.model} of this knowledge box is not installed on this daemon: it is searched by keywords only. Run ${installHint(def.model)}.`,
    };
  }
  if (!kbModelNames(kb).length) {
    return {
      semantic_search: "active",
      notice: `No semantic model fixed yet: this knowledge box uses the daemon default ${def.model}${def.dim ? ` (${def.dim} dims)` : ""}, fixed at its first indexing.`,
    };
  }
  return { semantic_search: "active", notice: null };
}

/** Shown instead of stored secrets. */
export const MASK = "********";
const SECRET = /key|token|secret|password|authorization/i;

/** user_keys with secrets masked (nested header maps included): keys never leave the daemon. */
export function maskKeys(keys: unknown): Record<string, Record<string, unknown>> | null {
  if (!keys || typeof keys !== "object") return null;
  const mask = (o: Record<string, unknown>, all: boolean): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]) => {
        if (v && typeof v === "object" && !Array.isArray(v))
          return [k, mask(v as Record<string, unknown>, all || k === "headers")];
        return [k, typeof v === "string" && v && (all || SECRET.test(k)) ? MASK : v];
      }),
    );
  return mask(keys as Record<string, unknown>, false) as Record<string, Record<string, unknown>>;
}

/**
 * A knowledge box as it may leave the daemon in a backup or export: its `user_keys` secrets masked
 * (they are not in any archive; a restored box has none and needs them set again).
 */
export function withoutSecrets(kb: KbDoc): KbDoc {
  const lc = kb.learning_configuration;
  if (!lc?.user_keys) return kb;
  return { ...kb, learning_configuration: { ...lc, user_keys: maskKeys(lc.user_keys) } };
}

/** user_keys of a restored box: the masked values an archive holds are left out (an empty provider too). */
export function restoredKeys(keys: unknown): Record<string, unknown> | null {
  if (!keys || typeof keys !== "object") return null;
  const strip = (o: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(o)
        .filter(([, v]) => v !== MASK)
        .map(([k, v]) => [k, v && typeof v === "object" && !Array.isArray(v) ? strip(v as Record<string, unknown>) : v]),
    );
  return strip(keys as Record<string, unknown>);
}

/** Incoming user_keys where a masked value (read back and sent again) keeps the stored secret. */
export function unmaskKeys(incoming: Record<string, unknown>, stored: unknown): Record<string, unknown> {
  const old = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(incoming).map(([k, v]) => {
      if (v === MASK) return [k, old[k]];
      if (v && typeof v === "object" && !Array.isArray(v)) return [k, unmaskKeys(v as Record<string, unknown>, old[k])];
      return [k, v];
    }),
  );
}

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

/**
 * The spec's model configuration record for a knowledge box, with kbox's members.
 * `counts` (vectors per vectorset column) is only known to callers that opened the KB's store.
 */
export function effectiveConfiguration(
  kb: KbDoc,
  models: KbModelService,
  generation: GeneratorSettings,
  counts?: Map<string, number>,
): ModelConfiguration {
  const lc = (kb.learning_configuration ?? {}) as Record<string, unknown>;
  const vs = vectorsetsOf(models, kb).map((v) =>
    counts ? { ...v, vectors: counts.get(v.id.replace(/[^A-Za-z0-9_]/g, "_")) ?? 0 } : v,
  );
  const def = vs.find((v) => v.default);
  const gen = str(lc.generative_model);
  return {
    semantic_model: str(lc.semantic_model) ?? def?.model ?? null,
    semantic_models: vs.map((v) => v.model),
    default_semantic_model: def?.model ?? null,
    semantic_vector_size: def?.dim || null,
    // Vectors are compared by cosine similarity (daemon/search/semantic.ts).
    semantic_vector_similarity: def ? "COSINE" : null,
    semantic_matryoshka_dims: [],
    semantic_threshold: null,
    semantic_model_configs: Object.fromEntries(
      vs.map((v) => [v.model, { similarity: "COSINE", size: v.dim, threshold: null, matryoshka_dims: [] }]),
    ),
    generative_model: gen ?? generation.defaultModel,
    generative_model_source: gen ? "knowledge_box" : "daemon",
    user_keys: maskKeys(lc.user_keys),
    user_prompts: (lc.user_prompts as Record<string, unknown> | undefined) ?? null,
    summary: str(lc.summary) ?? "simple",
    summary_model: str(lc.summary_model),
    summary_prompt: lc.summary_prompt ?? null,
    prefer_markdown_generative_response: lc.prefer_markdown_generative_response === true,
    // kbox runs none of these; the record keeps the service's members and defaults.
    anonymization_model: str(lc.anonymization_model) ?? "disabled",
    visual_labeling: str(lc.visual_labeling) ?? "disabled",
    ner_model: str(lc.ner_model),
    relation_model: str(lc.relation_model),
    resource_labelers_models: [],
    paragraph_labelers_models: [],
    intent_models: [],
    ...semanticState(kb, vs),
    vectorsets: vs,
  };
}
