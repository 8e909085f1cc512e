/**
 * Local training for the SDK's Training calls: a multinomial naive Bayes term model per labelset
 * (classifier and resource-labeler learn from resource and field labels, paragraph-labeler from
 * paragraph labels), or an entity gazetteer (ner, from the resources' entity relations). Small enough
 * to train within the start request; the model is the JSON `nuclia.json` serves.
 */
import { randomUUID } from "node:crypto";
import { notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbStore, Store } from "../store/index.js";
import { words } from "./params.js";

export type TrainingKind = "classifier" | "resource-labeler" | "paragraph-labeler" | "ner";

interface ExecutionDoc {
  id: string;
  kbid: string;
  task: TrainingKind;
  start: string;
  end: string | null;
  status: "succeeded" | "failed" | "stopped";
  model?: Record<string, unknown>;
  error?: string;
}

type Example = { text: string; labels: string[] };

async function examples(store: KbStore, kind: TrainingKind, labelsets?: string[]): Promise<Example[]> {
  const keep = (l: string) => !labelsets?.length || labelsets.includes(l.split("/")[2]);
  const out: Example[] = [];
  for (const r of store.resources.values()) {
    const rows = await store.paragraphs.resourceRows(r.id);
    if (kind === "paragraph-labeler") {
      for (const p of rows) if (p.labels.some(keep)) out.push({ text: p.text, labels: p.labels.filter(keep) });
      continue;
    }
    type Fc = { classifications?: { labelset: string; label: string }[] };
    const labels = [
      ...(r.usermetadata?.classifications ?? []).map((c) => `/l/${c.labelset}/${c.label}`),
      ...((r.computedmetadata?.field_classifications ?? []) as Fc[]).flatMap((f) =>
        (f.classifications ?? []).map((c) => `/l/${c.labelset}/${c.label}`),
      ),
    ].filter(keep);
    if (labels.length) out.push({ text: rows.map((p) => p.text).join("\n"), labels: [...new Set(labels)] });
  }
  return out;
}

/** Term log-likelihoods per label (Laplace smoothed), keeping each label's 200 most telling terms. */
function naiveBayes(ex: Example[]): Record<string, unknown> {
  const counts = new Map<string, Map<string, number>>();
  const docs = new Map<string, number>();
  const vocab = new Set<string>();
  for (const e of ex) {
    const ws = words(e.text).filter((w) => w.length > 2);
    for (const l of e.labels) {
      docs.set(l, (docs.get(l) ?? 0) + 1);
      const c = counts.get(l) ?? new Map<string, number>();
      for (const w of ws) {
        c.set(w, (c.get(w) ?? 0) + 1);
        vocab.add(w);
      }
      counts.set(l, c);
    }
  }
  const labels: Record<string, unknown> = {};
  for (const [l, c] of counts) {
    const total = [...c.values()].reduce((a, b) => a + b, 0);
    const terms = [...c.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 200)
      .map(([w, n]) => [w, Math.log((n + 1) / (total + vocab.size))]);
    labels[l] = { prior: Math.log((docs.get(l) ?? 0) / ex.length), examples: docs.get(l), terms: Object.fromEntries(terms) };
  }
  return { algorithm: "multinomial-naive-bayes", examples: ex.length, vocabulary: vocab.size, labels };
}

function gazetteer(store: KbStore, tags?: string[]): Record<string, unknown> {
  const groups: Record<string, string[]> = {};
  for (const r of store.resources.values()) {
    const rels = [...((r.usermetadata?.relations as unknown[]) ?? []), ...((r.relations as unknown[]) ?? [])] as {
      to?: { type?: string; group?: string; value?: string };
    }[];
    for (const x of rels)
      if (x.to?.type === "entity" && x.to.group && x.to.value && (!tags?.length || tags.includes(x.to.group)))
        groups[x.to.group] = [...new Set([...(groups[x.to.group] ?? []), x.to.value])];
  }
  return { algorithm: "gazetteer", groups };
}

export class TrainingService {
  private constructor(
    private readonly table: DocTable<ExecutionDoc>,
    private readonly kbs: KbService,
  ) {}

  static async open(store: Store, kbs: KbService): Promise<TrainingService> {
    return new TrainingService(await store.metaTable<ExecutionDoc>("train_executions"), kbs);
  }

  private runs(kbid: string, kind?: TrainingKind): ExecutionDoc[] {
    const uuid = this.kbs.require(kbid).uuid;
    return [...this.table.values()]
      .filter((e) => e.kbid === uuid && (!kind || e.task === kind))
      .sort((a, b) => b.start.localeCompare(a.start));
  }

  status(kbid: string, kind: TrainingKind) {
    const last = this.runs(kbid, kind)[0];
    if (!last) return { task: kind, status: "not_running" as const };
    const status = last.status === "stopped" ? ("stopped" as const) : ("finished" as const);
    return { task: kind, status, last_execution: { start: last.start, end: last.end, status: last.status } };
  }

  async start(kbid: string, kind: TrainingKind, body: { valid_nertags?: string[]; valid_labelsets?: string[] }) {
    const { store } = await this.kbs.open(kbid);
    const doc: ExecutionDoc = {
      id: randomUUID().replace(/-/g, ""),
      kbid: store.kbid,
      task: kind,
      start: new Date().toISOString(),
      end: null,
      status: "succeeded",
    };
    try {
      if (kind === "ner") doc.model = gazetteer(store, body.valid_nertags);
      else {
        const ex = await examples(store, kind, body.valid_labelsets);
        if (!ex.length) throw new Error("no labelled examples to learn from");
        doc.model = { type: kind, ...naiveBayes(ex) };
      }
    } catch (e) {
      doc.status = "failed";
      doc.error = (e as Error).message;
    }
    doc.end = new Date().toISOString();
    await this.table.put(doc.id, doc);
    return this.status(kbid, kind);
  }

  executions(kbid: string, page = 0) {
    const all = this.runs(kbid);
    const size = 20;
    return {
      items: all
        .slice(page * size, page * size + size)
        .map((e) => ({ id: e.id, task: e.task, start: e.start, end: e.end, status: e.status })),
      pagination: { page, size, last: (page + 1) * size >= all.length },
    };
  }

  model(kbid: string, kind: TrainingKind): Record<string, unknown> {
    const ok = this.runs(kbid, kind).find((e) => e.status === "succeeded" && e.model);
    if (!ok?.model) throw notFound(`No ${kind} model was trained for this knowledge box`);
    return ok.model;
  }

  async dropKb(kbid: string): Promise<void> {
    for (const e of [...this.table.values()].filter((x) => x.kbid === kbid)) await this.table.delete(e.id);
  }
}
