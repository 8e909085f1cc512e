/**
 * Rows of a dataset, drawn from a knowledge box in the shape of the dataset's type (columns as
 * upstream's trainset partitions name them). Paragraph labels are those on the paragraph rows (found by
 * processing or tasks) and those users attached through fieldmetadata; field labels are the resource's
 * and its computed field classifications. The dataset's `filter.labels` keeps the labels (and rows) it names.
 */
import { invalid } from "../errors.js";
import { userParagraphLabels } from "../search/resource-props.js";
import type { DatasetType, KbStore, ParagraphRow, PartitionColumn, ResourceDoc } from "../store/index.js";

export const COLUMNS: Record<Exclude<DatasetType, "IMAGE_CLASSIFICATION">, PartitionColumn[]> = {
  PARAGRAPH_CLASSIFICATION: [
    { name: "paragraph_id", kind: "string" },
    { name: "text", kind: "string" },
    { name: "labels", kind: "strings" },
  ],
  FIELD_CLASSIFICATION: [
    { name: "field_id", kind: "string" },
    { name: "text", kind: "string" },
    { name: "labels", kind: "strings" },
  ],
  SENTENCE_CLASSIFICATION: [
    { name: "paragraph_id", kind: "string" },
    { name: "text", kind: "string" },
    { name: "labels", kind: "strings" },
  ],
  TOKEN_CLASSIFICATION: [
    { name: "paragraph_id", kind: "string" },
    { name: "text", kind: "strings" },
    { name: "labels", kind: "strings" },
  ],
  PARAGRAPH_STREAMING: [
    { name: "paragraph_id", kind: "string" },
    { name: "text", kind: "string" },
    { name: "labels", kind: "strings" },
  ],
  FIELD_STREAMING: [
    { name: "split", kind: "string" },
    { name: "field", kind: "string" },
    { name: "field_type", kind: "string" },
    { name: "labels", kind: "strings" },
    { name: "text", kind: "string" },
  ],
  QUESTION_ANSWER_STREAMING: [
    { name: "question", kind: "string" },
    { name: "answer", kind: "string" },
    { name: "question_paragraphs", kind: "strings" },
    { name: "answer_paragraphs", kind: "strings" },
  ],
};

/** A label filter: `topics`, `/l/topics` (a labelset) or `/l/topics/pets` (one label); none keeps every label. */
export function labelFilter(labels: string[] | undefined): (l: string) => boolean {
  const want = (labels ?? []).map((f) => (f.startsWith("/l/") ? f : `/l/${f}`));
  if (!want.length) return (l) => l.startsWith("/l/");
  return (l) => want.some((f) => l === f || l.startsWith(`${f}/`));
}

type Row = Record<string, unknown>;

function resourceLabels(r: ResourceDoc): string[] {
  return (r.usermetadata?.classifications ?? []).filter((c) => !c.cancelled_by_user).map((c) => `/l/${c.labelset}/${c.label}`);
}

function fieldLabels(r: ResourceDoc, field: string): string[] {
  const id = field.split("/").slice(1).join("/");
  type Fc = { field: { field: string }; classifications?: { labelset: string; label: string }[] };
  const fcs = (r.computedmetadata?.field_classifications ?? []) as Fc[];
  return fcs
    .filter((f) => f.field.field === id)
    .flatMap((f) => (f.classifications ?? []).map((c) => `/l/${c.labelset}/${c.label}`));
}

/** Tokens of a paragraph tagged B-/I-<group> where the resource's entities occur, O elsewhere. */
function tokenTags(text: string, r: ResourceDoc): { tokens: string[]; tags: string[] } {
  const tokens = text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
  const tags = tokens.map(() => "O");
  const rels = [...((r.usermetadata?.relations as unknown[]) ?? []), ...((r.relations as unknown[]) ?? [])] as {
    to?: { type?: string; group?: string; value?: string };
  }[];
  for (const e of rels) {
    if (e.to?.type !== "entity" || !e.to.value || !e.to.group) continue;
    const ent = e.to.value.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
    for (let i = 0; i + ent.length <= tokens.length; i++)
      if (ent.every((t, j) => tokens[i + j].toLowerCase() === t.toLowerCase()))
        ent.forEach((_, j) => {
          tags[i + j] = `${j ? "I" : "B"}-${e.to?.group}`;
        });
  }
  return { tokens, tags };
}

const sentences = (t: string) => (t.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);

async function questionAnswers(store: KbStore, r: ResourceDoc, keep: (l: string) => boolean): Promise<Row[]> {
  const docs = [...(await store.fields.group(r.id)).values()];
  await store.loadExtracted(docs);
  const out: Row[] = [];
  for (const d of docs) {
    type Qa = { question: { text: string; ids_paragraphs?: string[] }; answers: { text: string; ids_paragraphs?: string[] }[] };
    const qa = (d.extracted?.question_answers as { question_answers?: { question_answers?: Qa[] } } | undefined)?.question_answers
      ?.question_answers;
    if (!qa) continue;
    const labels = [...resourceLabels(r), ...fieldLabels(r, `x/${d.id}`)];
    if (labels.length && !labels.some(keep) && labels.some((l) => l.startsWith("/l/"))) continue;
    for (const q of qa)
      for (const a of q.answers)
        out.push({
          question: q.question.text,
          answer: a.text,
          question_paragraphs: q.question.ids_paragraphs ?? [],
          answer_paragraphs: a.ids_paragraphs ?? [],
        });
  }
  return out;
}

/** Every row of a dataset of `type` drawn from a knowledge box (resources in creation order). */
export async function* datasetRows(store: KbStore, type: DatasetType, filter: { labels?: string[] }): AsyncGenerator<Row> {
  if (type === "IMAGE_CLASSIFICATION")
    throw invalid([
      {
        type: "value_error",
        loc: ["body", "kb_id"],
        msg: "IMAGE_CLASSIFICATION is not supported here: kbox keeps no page images to export",
        input: type,
      },
    ]);
  const keep = labelFilter(filter.labels);
  const filtered = !!filter.labels?.length;
  const resources = [...store.resources.values()].sort((a, b) => a.created.localeCompare(b.created));
  for (const r of resources) {
    if (type === "QUESTION_ANSWER_STREAMING") {
      yield* await questionAnswers(store, r, keep);
      continue;
    }
    const rows = (await store.paragraphs.resourceRows(r.id)).sort((a, b) => a.field.localeCompare(b.field) || a.start - b.start);
    const user = userParagraphLabels(r);
    const paragraphLabels = (p: ParagraphRow) => [...new Set([...p.labels, ...(user.get(p.id) ?? [])])].filter(keep);
    if (type === "FIELD_CLASSIFICATION" || type === "FIELD_STREAMING") {
      const fields = new Map<string, ParagraphRow[]>();
      for (const p of rows) fields.set(p.field, [...(fields.get(p.field) ?? []), p]);
      for (const [field, ps] of fields) {
        const labels = [...new Set([...resourceLabels(r), ...fieldLabels(r, field)])].filter(keep);
        if (type === "FIELD_CLASSIFICATION" && !labels.length) continue;
        if (type === "FIELD_STREAMING" && filtered && !labels.length) continue;
        const text = ps.map((p) => p.text).join("\n");
        if (type === "FIELD_CLASSIFICATION") yield { field_id: `${r.id}/${field}`, text, labels };
        else yield { split: ps[0].split, field: `${r.id}/${field}`, field_type: ps[0].field_type, labels, text };
      }
      continue;
    }
    for (const p of rows) {
      const labels = paragraphLabels(p);
      if (type === "PARAGRAPH_CLASSIFICATION") {
        if (labels.length) yield { paragraph_id: p.id, text: p.text, labels };
      } else if (type === "SENTENCE_CLASSIFICATION") {
        if (labels.length) for (const s of sentences(p.text)) yield { paragraph_id: p.id, text: s, labels };
      } else if (type === "TOKEN_CLASSIFICATION") {
        const { tokens, tags } = tokenTags(p.text, r);
        if (tags.some((t) => t !== "O")) yield { paragraph_id: p.id, text: tokens, labels: tags };
      } else if (!filtered || labels.length) {
        yield { paragraph_id: p.id, text: p.text, labels };
      }
    }
  }
}
