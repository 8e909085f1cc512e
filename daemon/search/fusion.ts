import type { ParagraphHit as Hit } from "../store/paragraph-search.js";

export type ScoreType = "VECTOR" | "BM25" | "BOTH" | "RERANKER";
export type Ranked = Hit & { score_type: ScoreType };

export interface RrfOptions {
  k: number;
  keyword: number;
  semantic: number;
}

/**
 * Reciprocal rank fusion: score = Σ weight / (k + rank), rank from 0. A paragraph found by both
 * retrievers is BOTH. With only one list present its own scores are kept (BM25 or cosine).
 */
export function fuse(keyword: Hit[] | undefined, semantic: Hit[] | undefined, o: RrfOptions): Ranked[] {
  if (!semantic) return (keyword ?? []).map((h) => ({ ...h, score_type: "BM25" }));
  if (!keyword) return semantic.map((h) => ({ ...h, score_type: "VECTOR" }));
  const out = new Map<string, Ranked>();
  for (const [rank, h] of keyword.entries()) out.set(h.id, { ...h, score: o.keyword / (o.k + rank), score_type: "BM25" });
  for (const [rank, h] of semantic.entries()) {
    const add = o.semantic / (o.k + rank);
    const prev = out.get(h.id);
    if (prev) out.set(h.id, { ...prev, score: prev.score + add, score_type: "BOTH" });
    else out.set(h.id, { ...h, score: add, score_type: "VECTOR" });
  }
  return [...out.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
