/**
 * Ask in two halves, as separate calls: `retrieve` (the paragraphs a query finds, scored) and
 * `augment` (the text, labels and neighbours of given resources, fields and paragraphs).
 */
import type { FindBody, FindParagraph, FindResponse } from "../../src/api/find.js";
import type { AugmentRequest, AugmentResponse, RetrievalMatch, RetrievalRequest } from "../../src/api/retrieval.js";
import type { Principal } from "../auth/service.js";
import type { KbService } from "../kbs/service.js";
import type { ResourceService } from "../resources/service.js";
import type { SearchService } from "../search/service.js";
import type { ResourceDoc } from "../store/index.js";
import { ParagraphReader } from "./paragraphs.js";

/** The find a retrieval request stands for. */
export function findOf(req: RetrievalRequest): FindBody {
  const q = req.query;
  const base: FindBody = {
    top_k: req.top_k,
    filter_expression: req.filters.filter_expression,
    show_hidden: req.filters.show_hidden,
    rank_fusion: req.rank_fusion,
    reranker: req.reranker ?? "noop",
  };
  if ("query" in q && typeof q.query === "string") {
    const o = q.override ?? {};
    const kw = o.keyword === "disabled" ? undefined : (o.keyword ?? {});
    const sem = o.semantic === "disabled" ? undefined : (o.semantic ?? {});
    return {
      ...base,
      query: q.query,
      features: [...(kw ? (["keyword"] as const) : []), ...(sem ? (["semantic"] as const) : [])],
      min_score: { bm25: kw?.min_score ?? 0, semantic: sem?.min_score ?? undefined },
      vector: sem?.vector ?? undefined,
      vectorset: sem?.vectorset ?? undefined,
    };
  }
  const raw = q as Exclude<RetrievalRequest["query"], { query: string }>;
  return {
    ...base,
    query: raw.keyword?.query ?? "",
    features: [...(raw.keyword ? (["keyword"] as const) : []), ...(raw.semantic ? (["semantic"] as const) : [])],
    min_score: { bm25: raw.keyword?.min_score ?? 0, semantic: raw.semantic?.min_score },
    vector: raw.semantic?.query,
    vectorset: raw.semantic?.vectorset,
  };
}

const SCORES: Record<FindParagraph["score_type"], Pick<RetrievalMatch["score"], "source" | "type">> = {
  BM25: { source: "index", type: "keyword" },
  VECTOR: { source: "index", type: "semantic" },
  BOTH: { source: "rank_fusion", type: "rrf" },
  RERANKER: { source: "reranker", type: "reranker" },
  RELATION_RELEVANCE: { source: "index", type: "graph" },
};

/** A find response's paragraphs as retrieval matches, best first. */
export function matchesOf(res: FindResponse): RetrievalMatch[] {
  const byId = new Map<string, FindParagraph>();
  for (const r of Object.values(res.resources))
    for (const f of Object.values(r.fields)) for (const [id, p] of Object.entries(f.paragraphs)) byId.set(id, p);
  return res.best_matches.flatMap((id) => {
    const p = byId.get(id);
    if (!p) return [];
    const kind = SCORES[p.score_type];
    return [
      {
        id,
        score: { value: p.score, ...kind, history: [{ score: p.score, ...kind }] },
        metadata: {
          field_labels: [],
          paragraph_labels: p.labels,
          is_an_image: false,
          is_a_table: p.is_a_table,
          source_file: p.reference,
          page: p.position.page_number,
          in_page_with_visual: p.page_with_visual,
        },
      },
    ];
  });
}

/** Labels of a resource by labelset. */
function labelsByset(r: ResourceDoc): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of r.usermetadata?.classifications ?? []) {
    if (c.cancelled_by_user) continue;
    out[c.labelset] ??= [];
    out[c.labelset].push(c.label);
  }
  return out;
}

const SHOW = ["basic", "origin", "extra", "relations", "values", "errors", "security"] as const;

export class RetrievalService {
  constructor(
    private readonly kbs: KbService,
    private readonly resources: ResourceService,
    private readonly search: Pick<SearchService, "find">,
  ) {}

  async retrieve(kbid: string, req: RetrievalRequest, opts: { principal?: Principal; signal?: AbortSignal } = {}) {
    return { matches: matchesOf(await this.search.find(kbid, findOf(req), opts)) };
  }

  async augment(kbid: string, req: AugmentRequest): Promise<AugmentResponse> {
    const { kb, store } = await this.kbs.open(kbid, "Knowledge Box not found");
    const out: AugmentResponse = { resources: {}, fields: {}, paragraphs: {} };
    for (const spec of req.resources ?? []) {
      const show = SHOW.filter((s) => spec[s]);
      for (const given of spec.given) {
        const rid = given.replace(/-/g, "");
        const res = store.resources.get(rid);
        if (!res) continue;
        const view = await this.resources.get(kb.uuid, { rid }, { show: show.length ? [...show] : ["basic"] });
        out.resources[given] = {
          ...(show.length ? view : { id: rid }),
          ...(spec.title ? { title: res.title } : {}),
          ...(spec.summary ? { summary: res.summary } : {}),
          ...(spec.classification_labels ? { classification_labels: labelsByset(res) } : {}),
        };
      }
    }
    const reader = new ParagraphReader(store);
    const rids = [
      ...(req.fields ?? []).flatMap((f) => f.given),
      ...(req.paragraphs ?? []).flatMap((p) => p.given.map((g) => g.id)),
    ];
    await reader.load(rids.map((id) => id.slice(0, 32)));
    for (const spec of req.fields ?? []) {
      for (const given of spec.given) {
        const [rid, letter, id] = given.split("/");
        const res = store.resources.get(rid);
        if (!res?.fields[`${letter}/${id}`]) continue;
        out.fields[given] = {
          ...(spec.text ? { text: reader.fieldText(rid, `${letter}/${id}`) } : {}),
          ...(spec.classification_labels ? { classification_labels: labelsByset(res) } : {}),
        };
      }
    }
    for (const spec of req.paragraphs ?? []) {
      for (const { id } of spec.given) {
        const p = reader.get(id);
        if (!p) continue;
        const siblings = reader.of(p.rid, p.field).filter((s) => s.split === p.split);
        const i = siblings.findIndex((s) => s.id === id);
        out.paragraphs[id] = {
          ...(spec.text ? { text: p.text } : {}),
          ...(spec.neighbours_before
            ? { neighbours_before: siblings.slice(Math.max(0, i - spec.neighbours_before), i).map((s) => s.id) }
            : {}),
          ...(spec.neighbours_after
            ? { neighbours_after: siblings.slice(i + 1, i + 1 + spec.neighbours_after).map((s) => s.id) }
            : {}),
        };
      }
    }
    return out;
  }
}
