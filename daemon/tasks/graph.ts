/**
 * llm-graph: entities and relations of each paragraph into the resource's relations (kept under
 * `field_relations["da/<task id>"]`, served with the resource's relations, removed by cleanup). With a
 * generative model, the model lists entities of the task's `entity_defs` and relations between them as
 * JSON; without one, the local entity extraction (daemon/entities) finds them: the NLP families named by
 * `entity_defs` (PERSON, LOC, ORG, DATE, NUMBER) and the entities of the task's examples, with the verb
 * of a sentence as the relation between two of them.
 */
import { analyse, type EntityGroupDef, type Relation } from "../entities/index.js";
import type { ParagraphRow, TaskOutputDoc } from "../store/index.js";
import { badParam, complete, operation } from "./params.js";
import type { TaskContext, TaskImpl, TaskOutput } from "./types.js";

interface GraphOp {
  ident?: string;
  entity_defs: { label: string; description?: string }[];
  examples?: {
    entities?: { name: string; label: string }[];
    relations?: { source: string; target: string; label: string }[];
    text?: string;
  }[];
}

const opOf = (params: Record<string, unknown>) => operation<GraphOp>(params, "graph");
const key = (taskId: string) => `da/${taskId}`;

/** The examples' entities as entities groups (matched wherever they occur). */
function exampleGroups(op: GraphOp): EntityGroupDef[] {
  const by = new Map<string, EntityGroupDef>();
  for (const ex of op.examples ?? [])
    for (const e of ex.entities ?? []) {
      const g = by.get(e.label) ?? { id: e.label, entities: {} };
      g.entities[e.name] = { value: e.name };
      by.set(e.label, g);
    }
  return [...by.values()];
}

type Found = { entities: { name: string; label: string }[]; relations: { source: string; target: string; label: string }[] };

function offline(text: string, op: GraphOp, lang: string): Found {
  const wanted = new Set(op.entity_defs.map((d) => d.label));
  const a = analyse(text, exampleGroups(op), { language: lang || undefined });
  return {
    entities: a.entities.filter((e) => wanted.has(e.label)).map((e) => ({ name: e.text, label: e.label })),
    relations: a.relations
      .filter((r) => wanted.has(r.from.label) && wanted.has(r.to.label))
      .map((r) => ({ source: r.from.text, target: r.to.text, label: r.label })),
  };
}

async function withModel(ctx: TaskContext, text: string, op: GraphOp): Promise<Found> {
  const gen = ctx.generator;
  if (!gen) return { entities: [], relations: [] };
  const defs = op.entity_defs.map((d) => `- ${d.label}${d.description ? `: ${d.description}` : ""}`).join("\n");
  const system = `Extract entities of these types:\n${defs}\nand the relations the text states between them. Answer only JSON: {"entities":[{"name","label"}],"relations":[{"source","target","label"}]}.`;
  const out = await complete(gen, system, text, ctx.signal, 800);
  try {
    const j = JSON.parse(out.slice(out.indexOf("{"), out.lastIndexOf("}") + 1)) as Partial<Found>;
    return { entities: j.entities ?? [], relations: j.relations ?? [] };
  } catch {
    return { entities: [], relations: [] };
  }
}

function relationsOf(rid: string, p: ParagraphRow, f: Found, taskId: string): Relation[] {
  const label = new Map(f.entities.map((e) => [e.name, e.label]));
  const meta = { paragraph_id: p.id, data_augmentation_task_id: taskId } as Relation["metadata"];
  const out: Relation[] = f.entities.map((e) => ({
    relation: "ENTITY",
    label: "",
    metadata: meta,
    from: { value: rid, type: "resource", group: "" },
    to: { value: e.name, type: "entity", group: e.label },
  }));
  for (const r of f.relations)
    out.push({
      relation: "OTHER",
      label: r.label,
      metadata: meta,
      from: { value: r.source, type: "entity", group: label.get(r.source) ?? "" },
      to: { value: r.target, type: "entity", group: label.get(r.target) ?? "" },
    });
  return out;
}

export const llmGraph: TaskImpl = {
  name: "llm-graph",
  description: "Entities and relations of each paragraph into the resource's relations (model, or the local entity extraction)",
  dataAugmentation: true,
  canCleanup: true,
  applies: ["EXISTING", "NEW", "ALL"],
  usesModel: true,
  offlineMethod: "offline:entity-extraction",
  validation: {
    title: "GraphParameters",
    type: "object",
    properties: { operations: { type: "array", items: { type: "object", properties: { graph: { type: "object" } } } } },
    required: ["operations"],
  },
  check(params) {
    const op = opOf(params);
    if (!op || !Array.isArray(op.entity_defs) || !op.entity_defs.length)
      badParam(
        ["operations"],
        "llm-graph needs an operation {graph: {entity_defs: [{label, description?}], examples?}}",
        params.operations,
      );
  },
  async run(ctx, rid): Promise<TaskOutput | undefined> {
    const res = ctx.store.resources.get(rid);
    const op = opOf(ctx.task.parameters);
    if (!res || !op) return undefined;
    const rows = (await ctx.store.paragraphs.resourceRows(rid)).filter((r) => !r.field.startsWith("a/"));
    const rels: Relation[] = [];
    for (const p of rows) {
      const found = ctx.generator ? await withModel(ctx, p.text, op) : offline(p.text, op, p.lang);
      rels.push(...relationsOf(rid, p, found, ctx.task.id));
    }
    if (!rels.length) return undefined;
    const cur = ctx.store.resources.get(rid) ?? res;
    await ctx.store.resources.put(rid, { ...cur, field_relations: { ...(cur.field_relations ?? {}), [key(ctx.task.id)]: rels } });
    return { relations: rels.length };
  },
  async cleanup(ctx, out: TaskOutputDoc) {
    const cur = ctx.store.resources.get(out.rid);
    if (!cur?.field_relations?.[key(out.task_id)]) return;
    const { [key(out.task_id)]: _, ...rest } = cur.field_relations;
    await ctx.store.resources.put(out.rid, { ...cur, field_relations: rest });
  },
};
