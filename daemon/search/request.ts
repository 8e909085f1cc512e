import type { z } from "zod";
import type { FindBody, MinScore, RankFusion, Reranker } from "../../src/api/find.js";
import type { Show } from "../../src/api/resources.js";
import type { KbDoc } from "../store/index.js";

/** A find request with every default applied: what the retrieval pipeline runs on. */
export interface ResolvedFind extends Omit<FindBody, "features" | "show" | "top_k" | "min_score" | "rank_fusion" | "reranker"> {
  query: string;
  top_k: number;
  page_number: number;
  keyword: boolean;
  semantic: boolean;
  /** features includes relations: the answer carries the relations of the entities the query names. */
  relations: boolean;
  show: Show[];
  minSemantic: number | null;
  minBm25: number;
  rrf: { k: number; window?: number; keyword: number; semantic: number };
  rerank: { kind: "predict" | "noop"; window?: number };
}

function minScores(m: z.infer<typeof MinScore> | null | undefined, kb: KbDoc): { semantic: number | null; bm25: number } {
  const kbDefault = (kb.learning_configuration as { semantic_threshold?: number } | null)?.semantic_threshold ?? null;
  if (m === undefined || m === null) return { semantic: kbDefault, bm25: 0 };
  if (typeof m === "number") return { semantic: m, bm25: 0 };
  return { semantic: m.semantic ?? kbDefault, bm25: m.bm25 ?? 0 };
}

function rrfOf(r: z.infer<typeof RankFusion> | undefined): ResolvedFind["rrf"] {
  if (r === undefined || r === "rrf") return { k: 60, keyword: 1, semantic: 1 };
  return { k: r.k ?? 60, window: r.window, keyword: r.boosting?.keyword ?? 1, semantic: r.boosting?.semantic ?? 1 };
}

function rerankOf(r: z.infer<typeof Reranker> | undefined): ResolvedFind["rerank"] {
  if (r === undefined) return { kind: "predict" };
  if (typeof r === "string") return { kind: r };
  return { kind: r.name, window: r.window };
}

/** Apply the wire's defaults to a (merged) find body. */
export function resolveFind(b: FindBody, kb: KbDoc): ResolvedFind {
  const features = b.features ?? ["keyword", "semantic"];
  const min = minScores(b.min_score, kb);
  return {
    ...b,
    query: b.query ?? "",
    top_k: b.top_k ?? 20,
    page_number: b.page_number ?? 0,
    keyword: features.some((f) => f === "keyword" || f === "fulltext" || f === "paragraphs"),
    semantic: features.some((f) => f === "semantic" || f === "vectors"),
    relations: features.includes("relations"),
    show: b.show ?? ["basic"],
    minSemantic: min.semantic,
    minBm25: min.bm25,
    rrf: rrfOf(b.rank_fusion),
    rerank: rerankOf(b.reranker),
  };
}

/** The merge rule of stored configurations: request members override configuration members, shallowly. */
export function mergeConfig(config: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const [k, v] of Object.entries(body)) if (v !== undefined && k !== "search_configuration") out[k] = v;
  return out;
}
