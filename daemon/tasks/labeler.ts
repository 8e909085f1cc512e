/**
 * The labeler: labels paragraphs (`on` 0) or whole fields (`on` 1) with the labels of a labelset. With a
 * generative model, the model picks the labels from their names, descriptions and examples; without
 * one, a label applies when the text holds its name or one of the keywords/examples the user gave
 * (see matchesExample). Paragraph labels go on the paragraph rows (what find's paragraph-label filters
 * and datasets read), field labels into the resource's computed field classifications.
 */
import type { ParagraphRow, ResourceDoc, TaskOutputDoc } from "../store/index.js";
import { badParam, complete, matchesExample, operation, words } from "./params.js";
import type { TaskContext, TaskImpl, TaskOutput } from "./types.js";

interface LabelDef {
  label: string;
  examples?: string[];
  description?: string;
}
interface LabelOp {
  labels: LabelDef[];
  ident?: string;
  multiple?: boolean;
  description?: string;
}

function labelOp(params: Record<string, unknown>): LabelOp {
  const op = operation<LabelOp>(params, "label");
  if (!op) badParam(["operations"], "a labeler needs an operation {label: {labels: [{label, examples?}]}}", params.operations);
  if (!Array.isArray(op.labels) || !op.labels.length || op.labels.some((l) => typeof l?.label !== "string" || !l.label))
    badParam(
      ["operations", 0, "label", "labels"],
      "labels must be a non-empty list of {label, examples?, description?}",
      op.labels,
    );
  return op;
}

const labelsetOf = (params: Record<string, unknown>, op: LabelOp) =>
  op.ident || (typeof params.name === "string" && params.name) || "labeler";

/** The labels that apply to a text, offline: by name, keywords and examples; the best one unless `multiple`. */
function offlineLabels(text: string, op: LabelOp): string[] {
  const scored = op.labels
    .map((l) => ({ label: l.label, hits: [l.label, ...(l.examples ?? [])].filter((k) => matchesExample(text, k)).length }))
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits);
  return op.multiple ? scored.map((s) => s.label) : scored.slice(0, 1).map((s) => s.label);
}

async function modelLabels(ctx: TaskContext, text: string, op: LabelOp): Promise<string[]> {
  const gen = ctx.generator;
  if (!gen) return offlineLabels(text, op);
  const list = op.labels
    .map(
      (l) =>
        `- ${l.label}${l.description ? `: ${l.description}` : ""}${l.examples?.length ? ` (examples: ${l.examples.join("; ")})` : ""}`,
    )
    .join("\n");
  const system = `Classify the text with these labels${op.description ? ` (${op.description})` : ""}:\n${list}\n\nAnswer with the matching label names, ${op.multiple ? "one per line" : "only the best one"}, or NONE.`;
  const answer = await complete(gen, system, text, ctx.signal, 60);
  const said = new Set(words(answer).join(" ").split(" "));
  const hit = op.labels.filter((l) => words(l.label).every((w) => said.has(w))).map((l) => l.label);
  return op.multiple ? hit : hit.slice(0, 1);
}

/** Only what the task's `filter` lets through: `contains` (any of the strings) and `labels` (any of the resource's). */
function passes(params: Record<string, unknown>, text: string, res: ResourceDoc): boolean {
  const f = (params.filter ?? {}) as { contains?: string[]; labels?: string[] };
  if (f.contains?.length && !f.contains.some((c) => text.toLowerCase().includes(c.toLowerCase()))) return false;
  if (f.labels?.length) {
    const have = (res.usermetadata?.classifications ?? []).map((c) => `${c.labelset}/${c.label}`);
    if (!f.labels.some((l) => have.includes(l.replace(/^\/l\//, "")))) return false;
  }
  return true;
}

const isContent = (r: ParagraphRow) => !r.field.startsWith("a/");

function byField(rows: ParagraphRow[]): Map<string, ParagraphRow[]> {
  const out = new Map<string, ParagraphRow[]>();
  for (const r of rows) out.set(r.field, [...(out.get(r.field) ?? []), r]);
  return out;
}

async function labelParagraphs(ctx: TaskContext, rid: string, op: LabelOp, res: ResourceDoc): Promise<TaskOutput | undefined> {
  const set = labelsetOf(ctx.task.parameters, op);
  const added: Record<string, string[]> = {};
  for (const [field, rows] of byField(await ctx.store.paragraphs.resourceRows(rid))) {
    let changed = false;
    for (const row of rows) {
      if (!isContent(row) || !passes(ctx.task.parameters, row.text, res)) continue;
      const labels = (await modelLabels(ctx, row.text, op)).map((l) => `/l/${set}/${l}`).filter((l) => !row.labels.includes(l));
      if (!labels.length) continue;
      row.labels = [...row.labels, ...labels];
      added[row.id] = labels;
      changed = true;
    }
    if (changed) await ctx.store.paragraphs.replaceField(rid, field, rows);
  }
  return Object.keys(added).length ? { paragraph_labels: added } : undefined;
}

type FieldClassification = {
  field: { field: string; field_type: string };
  classifications: { labelset: string; label: string }[];
};

async function labelFields(ctx: TaskContext, rid: string, op: LabelOp, res: ResourceDoc): Promise<TaskOutput | undefined> {
  const set = labelsetOf(ctx.task.parameters, op);
  const added: Record<string, { labelset: string; label: string }[]> = {};
  const next = structuredClone(res);
  const fcs = (next.computedmetadata?.field_classifications ?? []) as FieldClassification[];
  for (const [field, rows] of byField((await ctx.store.paragraphs.resourceRows(rid)).filter(isContent))) {
    const text = rows
      .sort((a, b) => a.start - b.start)
      .map((r) => r.text)
      .join("\n");
    if (!passes(ctx.task.parameters, text, res)) continue;
    const [letter, ...id] = field.split("/");
    let fc = fcs.find((f) => f.field.field === id.join("/") && f.field.field_type === rows[0].field_type);
    if (!fc) {
      fc = { field: { field: id.join("/"), field_type: rows[0].field_type || letter }, classifications: [] };
      fcs.push(fc);
    }
    const cur = fc;
    const labels = (await modelLabels(ctx, text, op))
      .map((label) => ({ labelset: set, label }))
      .filter((c) => !cur.classifications.some((x) => x.labelset === c.labelset && x.label === c.label));
    if (!labels.length) continue;
    cur.classifications.push(...labels);
    added[field] = labels;
  }
  if (!Object.keys(added).length) return undefined;
  next.computedmetadata = { field_classifications: fcs };
  next.modified = new Date().toISOString();
  await ctx.store.resources.put(rid, next);
  return { field_labels: added };
}

/** Take off the labels a labeler run added (paragraph rows and field classifications). */
async function unlabel(ctx: Omit<TaskContext, "generator">, out: TaskOutputDoc): Promise<void> {
  const added = out.paragraph_labels ?? {};
  if (Object.keys(added).length) {
    for (const [field, rows] of byField(await ctx.store.paragraphs.resourceRows(out.rid))) {
      let changed = false;
      for (const row of rows) {
        const gone = added[row.id];
        if (!gone) continue;
        row.labels = row.labels.filter((l) => !gone.includes(l));
        changed = true;
      }
      if (changed) await ctx.store.paragraphs.replaceField(out.rid, field, rows);
    }
  }
  const res = ctx.store.resources.get(out.rid);
  if (res && out.field_labels && Object.keys(out.field_labels).length) {
    const next = structuredClone(res);
    const fcs = (next.computedmetadata?.field_classifications ?? []) as FieldClassification[];
    for (const [field, labels] of Object.entries(out.field_labels)) {
      const id = field.split("/").slice(1).join("/");
      for (const fc of fcs.filter((f) => f.field.field === id))
        fc.classifications = fc.classifications.filter(
          (c) => !labels.some((l) => l.labelset === c.labelset && l.label === c.label),
        );
    }
    next.computedmetadata = { field_classifications: fcs.filter((f) => f.classifications.length) };
    await ctx.store.resources.put(out.rid, next);
  }
}

export const labeler: TaskImpl = {
  name: "labeler",
  description:
    "Label paragraphs (on 0) or whole fields (on 1) with a labelset: by the generative model, or offline by each label's name, keywords and examples",
  dataAugmentation: true,
  canCleanup: true,
  applies: ["EXISTING", "NEW", "ALL"],
  offlineMethod: "offline:keyword-and-example-matching",
  usesModel: true,
  validation: {
    title: "LabelerParameters",
    type: "object",
    properties: {
      name: { type: "string" },
      on: { type: "integer", enum: [0, 1], default: 0 },
      filter: { type: "object", properties: { contains: { type: "array" }, labels: { type: "array" } } },
      llm: { type: "object", properties: { model: { type: "string" } } },
      operations: { type: "array", items: { type: "object", properties: { label: { type: "object" } } } },
    },
    required: ["operations"],
  },
  check(params) {
    labelOp(params);
    if (params.on !== undefined && params.on !== 0 && params.on !== 1)
      badParam(["on"], "on must be 0 (paragraphs) or 1 (whole fields)", params.on);
  },
  async run(ctx, rid) {
    const res = ctx.store.resources.get(rid);
    if (!res) return undefined;
    const op = labelOp(ctx.task.parameters);
    return ctx.task.parameters.on === 1 ? labelFields(ctx, rid, op, res) : labelParagraphs(ctx, rid, op, res);
  },
  cleanup: unlabel,
};
