/**
 * guard-a and guard-b: evaluate the knowledge box's content against the account's enabled guardrail
 * policies (or those `policy_ids` names) and label violations with the policy's name, in the labelset
 * `guardrails` (or the task's `name`). guard-a judges each paragraph, guard-b each whole field. The
 * evaluation is the guardrails area's: the generative model, or offline trigger terms.
 */
import { evaluate } from "../guardrails/evaluate.js";
import type { ParagraphRow, ResourceDoc } from "../store/index.js";
import { badParam } from "./params.js";
import type { TaskContext, TaskImpl, TaskOutput } from "./types.js";

const labelsetOf = (ctx: TaskContext) =>
  (typeof ctx.task.parameters.name === "string" && ctx.task.parameters.name) || "guardrails";

function policiesOf(ctx: TaskContext) {
  const ids = ctx.task.parameters.policy_ids as string[] | undefined;
  const all = ctx.deps.guardrails.list(ctx.task.account_id);
  return ids?.length ? all.filter((p) => ids.includes(p.id)) : all.filter((p) => p.enabled);
}

const labelName = (name: string) => name.replace(/\//g, "-");

async function flagged(ctx: TaskContext, text: string): Promise<string[]> {
  const verdicts = await evaluate(text, policiesOf(ctx), ctx.generator, ctx.signal);
  return verdicts.filter((v) => v.flagged).map((v) => `/l/${labelsetOf(ctx)}/${labelName(v.name)}`);
}

async function guardParagraphs(ctx: TaskContext, rid: string): Promise<TaskOutput | undefined> {
  const rows = await ctx.store.paragraphs.resourceRows(rid);
  const added: Record<string, string[]> = {};
  const fields = new Set<string>();
  for (const r of rows) {
    const labels = (await flagged(ctx, r.text)).filter((l) => !r.labels.includes(l));
    if (!labels.length) continue;
    r.labels = [...r.labels, ...labels];
    added[r.id] = labels;
    fields.add(r.field);
  }
  for (const f of fields)
    await ctx.store.paragraphs.replaceField(
      rid,
      f,
      rows.filter((r: ParagraphRow) => r.field === f),
    );
  return fields.size ? { paragraph_labels: added } : undefined;
}

async function guardFields(ctx: TaskContext, rid: string, res: ResourceDoc): Promise<TaskOutput | undefined> {
  const rows = await ctx.store.paragraphs.resourceRows(rid);
  const byField = new Map<string, ParagraphRow[]>();
  for (const r of rows) byField.set(r.field, [...(byField.get(r.field) ?? []), r]);
  const next = structuredClone(res);
  type Fc = { field: { field: string; field_type: string }; classifications: { labelset: string; label: string }[] };
  const fcs = (next.computedmetadata?.field_classifications ?? []) as Fc[];
  const added: Record<string, { labelset: string; label: string }[]> = {};
  for (const [field, fr] of byField) {
    const text = fr
      .sort((a, b) => a.start - b.start)
      .map((r) => r.text)
      .join("\n");
    const labels = (await flagged(ctx, text)).map((l) => {
      const [, , labelset, label] = l.split("/");
      return { labelset, label };
    });
    if (!labels.length) continue;
    const id = field.split("/").slice(1).join("/");
    let fc = fcs.find((f) => f.field.field === id);
    if (!fc) {
      fc = { field: { field: id, field_type: fr[0].field_type }, classifications: [] };
      fcs.push(fc);
    }
    const cur = fc;
    const fresh = labels.filter((c) => !cur.classifications.some((x) => x.labelset === c.labelset && x.label === c.label));
    cur.classifications.push(...fresh);
    if (fresh.length) added[field] = fresh;
  }
  if (!Object.keys(added).length) return undefined;
  next.computedmetadata = { field_classifications: fcs };
  await ctx.store.resources.put(rid, next);
  return { field_labels: added };
}

export const guardTask = (name: "guard-a" | "guard-b", cleanup: TaskImpl["cleanup"]): TaskImpl => ({
  name,
  description:
    name === "guard-a"
      ? "Evaluate each paragraph against the account's guardrail policies and label violations with the policy's name"
      : "Evaluate each whole field against the account's guardrail policies and label violations with the policy's name",
  dataAugmentation: true,
  canCleanup: true,
  applies: ["EXISTING", "NEW", "ALL"],
  offlineMethod: "offline:trigger-terms",
  usesModel: true,
  validation: {
    title: "GuardParameters",
    type: "object",
    properties: { name: { type: "string" }, policy_ids: { type: "array", items: { type: "string" } } },
  },
  check(params) {
    if (params.policy_ids !== undefined && !Array.isArray(params.policy_ids))
      badParam(["policy_ids"], "policy_ids must be a list of guardrail policy ids", params.policy_ids);
  },
  async run(ctx, rid) {
    const res = ctx.store.resources.get(rid);
    if (!res || !policiesOf(ctx).length) return undefined;
    return name === "guard-a" ? guardParagraphs(ctx, rid) : guardFields(ctx, rid, res);
  },
  cleanup,
});
