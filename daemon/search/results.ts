import type { FindParagraph } from "../../src/api/find.js";
import type { Show } from "../../src/api/resources.js";
import { resourceView } from "../resources/view.js";
import type { FieldDoc, KbStore } from "../store/index.js";
import { analysisLanguage, term, words } from "../text/analyzer.js";
import type { Ranked } from "./fusion.js";
import { userParagraphLabels } from "./resource-props.js";

const list = (v: unknown): string[] => (v ? Array.from(v as Iterable<string>) : []);

/** Wrap every word of `text` whose index term is one of `terms` in `<mark>`. */
export function highlight(text: string, lang: string, terms: Set<string>): string {
  if (!terms.size) return text;
  const l = analysisLanguage(lang);
  let out = "";
  let at = 0;
  for (const w of words(text)) {
    const t = term(w.word, l);
    if (!t || !terms.has(t)) continue;
    out += `${text.slice(at, w.start)}<mark>${w.word}</mark>`;
    at = w.end;
  }
  return out + text.slice(at);
}

/** One paragraph as the wire's find result; `userLabels` are the labels a user gave it (resource record). */
export function paragraphResult(h: Ranked, order: number, text: string, userLabels: string[] = []): FindParagraph {
  const kind = String(h.kind ?? "TEXT");
  return {
    score: h.score,
    score_type: h.score_type,
    order,
    text,
    id: h.id,
    labels: [...new Set([...list(h.labels), ...userLabels]), `/k/${kind.toLowerCase()}`],
    position: {
      page_number: Number(h.page ?? 0),
      index: Number(h.idx ?? 0),
      start: Number(h.start ?? 0),
      end: Number(h.end ?? 0),
      start_seconds: [],
      end_seconds: [],
    },
    fuzzy_result: false,
    page_with_visual: false,
    reference: null,
    is_a_table: Boolean(h.is_table),
    relevant_relations: null,
  };
}

export interface ShapeOptions {
  show: Show[];
  fieldTypes?: string[];
  extracted?: string[];
  /** Query terms per analysis language, for highlighting (absent: no highlight). */
  highlightTerms?: (lang: string) => Set<string>;
}

/** Group ranked paragraphs by resource and field, with the resource attributes `show` asks for. */
export async function shapeResources(store: KbStore, hits: Ranked[], firstOrder: number, o: ShapeOptions) {
  const resources: Record<
    string,
    { id: string; fields: Record<string, { paragraphs: Record<string, FindParagraph> }> } & Record<string, unknown>
  > = {};
  const needsFields = o.show.some((s) => s === "values" || s === "extracted" || s === "errors");
  const userLabels = new Map<string, Map<string, string[]>>();
  for (const [i, h] of hits.entries()) {
    let r = resources[h.rid];
    if (!r) {
      const doc = store.resources.get(h.rid);
      let fields: Map<string, FieldDoc> | undefined;
      if (doc && needsFields) fields = await store.fields.group(h.rid);
      if (fields && o.show.includes("extracted")) await store.loadExtracted(fields.values());
      const view = doc
        ? resourceView(doc, fields, { show: o.show, fieldTypes: o.fieldTypes as never, extracted: o.extracted })
        : { id: h.rid };
      r = { ...view, id: h.rid, fields: {} };
      userLabels.set(h.rid, doc ? userParagraphLabels(doc) : new Map());
      resources[h.rid] = r;
    }
    const key = `/${String(h.field)}`;
    r.fields[key] ??= { paragraphs: {} };
    const lang = String(h.lang ?? "");
    const text = o.highlightTerms ? highlight(String(h.text), lang, o.highlightTerms(analysisLanguage(lang))) : String(h.text);
    r.fields[key].paragraphs[h.id] = paragraphResult(h, firstOrder + i, text, userLabels.get(h.rid)?.get(h.id));
  }
  return resources;
}
