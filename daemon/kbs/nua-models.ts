import type { ModelRecord } from "../../src/api/models.js";
import { KboxError, notFound } from "../errors.js";
import type { LearningService } from "./learning.js";

/** One model a knowledge box may use, by name, with its provider; 404 when it has none of that name. */
export function availableModel(learning: LearningService, kbid: string, name: string) {
  for (const [provider, models] of Object.entries(learning.available(kbid).providers)) {
    const m = models.find((x) => x.name === name);
    if (m) return { ...m, provider };
  }
  throw notFound(`Model ${name} is not available to this knowledge box`);
}

/**
 * Add a model to a knowledge box: a semantic model joins its semantic models (a new vectorset, filled
 * for what it holds), a generative one becomes its generative model. 422 for a model it cannot use.
 */
export async function addModelToKb(learning: LearningService, kbid: string, name: string, opts: { untrusted: boolean }) {
  const m = availableModel(learning, kbid, name);
  if (m.template)
    throw new KboxError(422, [
      { type: "value_error", loc: ["body", "id"], msg: `${name} is a template: name a model (e.g. openai:<model>)`, input: name },
    ]);
  if (m.type === "generative") return learning.update(kbid, { generative_model: name }, "patch", opts);
  const cur = await learning.configuration(kbid);
  const models = cur.semantic_models.includes(name) ? cur.semantic_models : [...cur.semantic_models, name];
  return learning.update(kbid, { semantic_models: models }, "patch", opts);
}

/**
 * Remove a model from a knowledge box: a semantic model leaves its semantic models (the learning
 * service refuses the last one), the generative model goes back to the daemon's default. 404 when the
 * box does not use it.
 */
export async function removeModelFromKb(learning: LearningService, kbid: string, name: string, opts: { untrusted: boolean }) {
  const cur = await learning.configuration(kbid);
  if (cur.semantic_models.includes(name))
    return learning.update(kbid, { semantic_models: cur.semantic_models.filter((m) => m !== name) }, "patch", opts);
  if (cur.generative_model === name && cur.generative_model_source === "knowledge_box")
    return learning.update(kbid, { generative_model: null }, "patch", opts);
  throw notFound(`The knowledge box does not use the model ${name}`);
}

/** A daemon model as an account's model record (kbox trains none: installed or configured models). */
export function accountModelRecord(m: ModelRecord, account: string) {
  return {
    model_id: m.name,
    account,
    title: m.name,
    model_types: [m.kind === "embedder" ? "SEMANTIC" : "RERANKER"],
    trained_date: m.installed_at ?? null,
    location: m.url ?? null,
    trained_kbid: null,
  };
}
