/**
 * The semantic-model migrator: adds the target model as a second vectorset (so resources processed
 * meanwhile are embedded into it too), re-embeds every stored paragraph into it resource by resource,
 * then makes it the default. Search keeps using the old default until the switch: no downtime.
 */
import { badParam } from "./params.js";
import type { TaskContext, TaskImpl } from "./types.js";

const target = (ctx: Pick<TaskContext, "task">) => String(ctx.task.parameters.semantic_model_id);

async function embedderOf(ctx: TaskContext) {
  const e = await ctx.deps.models.embedderFor(ctx.kb.uuid, vectorsetOf(ctx));
  if (!e) throw new Error(`the model ${target(ctx)} cannot embed here (not installed or unreachable)`);
  return e;
}

function vectorsetOf(ctx: TaskContext): string {
  const ref = ctx.deps.models.find(target(ctx));
  if (!ref) throw new Error(`unknown semantic model ${target(ctx)}`);
  return ref.vectorset;
}

export const migrator: TaskImpl = {
  name: "semantic-model-migrator",
  description:
    "Re-embed the knowledge box into a new vectorset with another semantic model, then make it the default (search answers throughout)",
  dataAugmentation: false,
  canCleanup: false,
  applies: ["EXISTING"],
  offlineMethod: "embedding",
  usesModel: false,
  validation: {
    title: "SemanticModelMigrationParams",
    type: "object",
    properties: { semantic_model_id: { type: "string" }, hf_embedding_key: { type: "string" } },
    required: ["semantic_model_id"],
  },
  check(params) {
    if (typeof params.semantic_model_id !== "string" || !params.semantic_model_id)
      badParam(["semantic_model_id"], "the semantic model to migrate to", params.semantic_model_id);
  },
  async prepare(ctx) {
    const vs = ctx.deps.models.vectorsets(ctx.kb.uuid);
    const ref = ctx.deps.models.find(target(ctx));
    if (!ref) throw new Error(`unknown semantic model ${target(ctx)}: install it or configure an endpoint`);
    if (!vs.some((v) => v.id === ref.vectorset)) {
      await ctx.deps.learning.update(ctx.kb.uuid, { semantic_models: [...vs.map((v) => v.model), ref.name] }, "patch");
      ctx.log(`added vectorset ${ref.vectorset} (${ref.name}, ${ref.dim} dims)`);
    }
    await ctx.store.paragraphs.ensureVectorset(ref.vectorset, ref.dim);
  },
  async run(ctx, rid) {
    const embedder = await embedderOf(ctx);
    const vs = vectorsetOf(ctx);
    const rows = await ctx.store.paragraphs.resourceRows(rid);
    const todo = rows.filter((r) => !r.vectors?.[vs]?.length);
    if (!todo.length) return undefined;
    const vectors = await embedder.embed(
      todo.map((r) => r.text),
      "passage",
      ctx.signal,
    );
    todo.forEach((r, i) => {
      r.vectors = { ...r.vectors, [vs]: Array.from(vectors[i]) };
    });
    const fields = new Set(todo.map((r) => r.field));
    for (const f of fields)
      await ctx.store.paragraphs.replaceField(
        rid,
        f,
        rows.filter((r) => r.field === f),
      );
    return undefined;
  },
  async finish(ctx) {
    const ref = ctx.deps.models.find(target(ctx));
    if (!ref) return;
    await ctx.store.paragraphs.idle();
    await ctx.deps.learning.update(ctx.kb.uuid, { default_semantic_model: ref.name }, "patch");
    ctx.log(`default vectorset is now ${ref.vectorset}`);
  },
};
