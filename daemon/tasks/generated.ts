/**
 * Tasks that generate text per resource: synthetic-questions (question–answer pairs per paragraph,
 * stored as the field's extracted question_answers) and ask (a stored prompt run over each resource,
 * its answer stored as a generated text field `da-<destination>`). With no generative model, questions
 * come from extractive templates over each paragraph's first sentence, and ask answers with the
 * extractive answerer over the resource's paragraphs; the task record says which.
 */
import { fieldRecordKey, type ParagraphRow, type TaskOutputDoc } from "../store/index.js";
import { badParam, complete, operation, words } from "./params.js";
import type { TaskContext, TaskImpl, TaskOutput } from "./types.js";

const isContent = (r: ParagraphRow) => !r.field.startsWith("a/") && !r.field.startsWith("t/da-");

const STOP = new Set(
  "the a an and or of to in on for with by is are was were be been it this that these those as at from its their has have had not but which who what".split(
    " ",
  ),
);

/** Offline: a question whose answer is the paragraph's first sentence, about its most frequent content words. */
export function templateQuestion(text: string): { question: string; answer: string } | undefined {
  const sentence = (text.match(/[^.!?]+[.!?]?/)?.[0] ?? text).trim();
  const counts = new Map<string, number>();
  for (const w of words(text)) if (w.length > 2 && !STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const topic = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || text.toLowerCase().indexOf(a[0]) - text.toLowerCase().indexOf(b[0]))
    .slice(0, 2)
    .map(([w]) => w);
  if (!topic.length || sentence.length < 10) return undefined;
  return { question: `What does the text say about ${topic.join(" and ")}?`, answer: sentence };
}

async function modelQuestion(ctx: TaskContext, text: string): Promise<{ question: string; answer: string } | undefined> {
  if (!ctx.generator) return templateQuestion(text);
  const qa = operation<{ question_generator_prompt?: string }>(ctx.task.parameters, "qa") ?? {};
  const system =
    qa.question_generator_prompt ??
    "Write one question the paragraph answers and its answer, exactly as two lines: 'Q: <question>' and 'A: <answer>'.";
  const out = await complete(ctx.generator, system, text, ctx.signal, 200);
  const q = /Q:\s*(.+)/i.exec(out)?.[1]?.trim();
  const a = /A:\s*([\s\S]+)/i.exec(out)?.[1]?.trim();
  return q && a ? { question: q, answer: a } : undefined;
}

async function setQuestionAnswers(ctx: Pick<TaskContext, "store">, rid: string, field: string, qa: unknown[] | undefined) {
  const key = fieldRecordKey(rid, field);
  const doc = await ctx.store.fields.get(key);
  if (!doc) return false;
  await ctx.store.loadExtracted([doc]);
  const extracted = { ...(doc.extracted ?? {}) };
  if (qa) extracted.question_answers = { question_answers: { question_answers: qa } };
  else delete extracted.question_answers;
  const old = doc.extracted_blob;
  const blob = await ctx.store.writeExtracted(rid, field, extracted);
  await ctx.store.fields.put(key, rid, { ...doc, extracted: undefined, extracted_blob: blob });
  await ctx.store.removeBlobs([old]);
  return true;
}

export const syntheticQuestions: TaskImpl = {
  name: "synthetic-questions",
  description: "Question–answer pairs per paragraph, stored as each field's question_answers (model, or offline templates)",
  dataAugmentation: true,
  canCleanup: true,
  applies: ["EXISTING", "NEW", "ALL"],
  usesModel: true,
  offlineMethod: "offline:question-templates",
  validation: { title: "SyntheticQuestionsParameters", type: "object", properties: { operations: { type: "array" } } },
  check() {},
  async run(ctx, rid) {
    const rows = (await ctx.store.paragraphs.resourceRows(rid)).filter(isContent).sort((a, b) => a.start - b.start);
    const byField = new Map<string, unknown[]>();
    for (const r of rows) {
      const qa = await modelQuestion(ctx, r.text);
      if (!qa) continue;
      const item = {
        question: { text: qa.question, language: r.lang || null, ids_paragraphs: [r.id] },
        answers: [{ text: qa.answer, language: r.lang || null, ids_paragraphs: [r.id] }],
      };
      byField.set(r.field, [...(byField.get(r.field) ?? []), item]);
    }
    const done: string[] = [];
    for (const [field, qa] of byField) if (await setQuestionAnswers(ctx, rid, field, qa)) done.push(field);
    if (done.length) await ctx.asset(`questions-${rid}.json`, "application/json", Buffer.from(JSON.stringify([...byField])));
    return done.length ? { qa_fields: done } : undefined;
  },
  async cleanup(ctx, out: TaskOutputDoc) {
    for (const f of out.qa_fields ?? []) await setQuestionAnswers(ctx, out.rid, f, undefined);
  },
};

interface AskOp {
  question?: string;
  destination?: string;
  user_prompt?: string;
}

/** The ask task's generated field id. */
const destination = (op: AskOp) => `da-${(op.destination || "ask").replace(/[^A-Za-z0-9_-]/g, "-")}`;

export const askTask = (
  put: (kbid: string, rid: string, id: string, text: string) => Promise<void>,
  del: (kbid: string, rid: string, id: string) => Promise<void>,
): TaskImpl => ({
  name: "ask",
  description: "Run a stored prompt over each resource and store the answer as a generated text field da-<destination>",
  dataAugmentation: true,
  canCleanup: true,
  applies: ["EXISTING", "NEW", "ALL"],
  usesModel: true,
  offlineMethod: "offline:extractive-answerer",
  validation: {
    title: "AskParameters",
    type: "object",
    properties: { operations: { type: "array", items: { type: "object", properties: { ask: { type: "object" } } } } },
    required: ["operations"],
  },
  check(params) {
    const op = operation<AskOp>(params, "ask");
    if (!op?.question)
      badParam(["operations"], "an ask task needs an operation {ask: {question, destination?}}", params.operations);
  },
  async run(ctx, rid) {
    const op = operation<AskOp>(ctx.task.parameters, "ask") as AskOp;
    const rows = (await ctx.store.paragraphs.resourceRows(rid)).filter(isContent).sort((a, b) => a.start - b.start);
    if (!rows.length || !ctx.generator) return undefined;
    const context = rows.map((r) => ({ id: r.id, text: r.text }));
    const prompt = `${op.user_prompt ? `${op.user_prompt}\n\n` : ""}Context:\n${rows.map((r) => r.text).join("\n\n")}\n\nQuestion: ${op.question}`;
    let answer = "";
    for await (const c of ctx.generator.generate({
      messages: [{ role: "user", content: prompt }],
      question: op.question as string,
      context,
      maxTokens: 500,
      signal: ctx.signal,
    }))
      if (c.type === "text") answer += c.text;
    if (!answer.trim()) return undefined;
    await put(ctx.kb.uuid, rid, destination(op), answer.trim());
    return { generated_fields: [destination(op)] };
  },
  async cleanup(ctx, out) {
    for (const id of out.generated_fields ?? []) await del(ctx.kb.uuid, out.rid, id).catch(() => undefined);
  },
});

export type { TaskOutput };
