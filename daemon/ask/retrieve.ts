import type { AskBody, RagStrategy } from "../../src/api/ask.js";
import { FindBody, type FindResponse } from "../../src/api/find.js";
import type { Principal } from "../auth/service.js";
import type { Retrieval as Found } from "../search/service.js";
import type { Ranked } from "./context.js";

/** What ask needs of search (daemon/search's SearchService): a find with its ranked paragraphs. */
export interface FindService {
  retrieve(kbid: string, body: FindBody, opts?: { principal?: Principal; signal?: AbortSignal }): Promise<Found>;
}

export interface Retrieval {
  main: FindResponse;
  prequeries?: Record<string, FindResponse>;
  /** Paragraphs of every query, fused by weight, best first. */
  ranked: Ranked[];
}

const FIND_KEYS = Object.keys(FindBody.shape) as (keyof FindBody)[];

/** The find members of an ask body (the ask-only members and the configuration name dropped). */
export function findPart(body: AskBody, query: string, rid?: string): FindBody {
  const out: Record<string, unknown> = {};
  for (const k of FIND_KEYS) if (body[k] !== undefined) out[k] = body[k];
  delete out.search_configuration;
  delete out.generative_model;
  delete out.rephrase;
  delete out.rephrase_prompt;
  out.query = query;
  if (rid) out.resource_filters = [rid];
  return out as FindBody;
}

/**
 * Run the main find and any prequeries; fuse them with reciprocal ranks scaled by each query's
 * weight (main_query_weight for the main one). `prefilter` prequeries restrict the main query to
 * the resources they found.
 */
export async function retrieve(
  search: FindService,
  kbid: string,
  body: AskBody,
  query: string,
  opts: { principal?: Principal; signal?: AbortSignal; rid?: string },
): Promise<Retrieval> {
  const pre = (body.rag_strategies ?? []).find((s): s is Extract<RagStrategy, { name: "prequeries" }> => s.name === "prequeries");
  const mainReq = findPart(body, query, opts.rid);
  const prequeries: Record<string, FindResponse> = {};
  const weighted: { res: Found; weight: number }[] = [];
  if (pre) {
    const results = await Promise.all(
      pre.queries.map((q) =>
        search.retrieve(kbid, { ...(q.request as FindBody), ...(opts.rid ? { resource_filters: [opts.rid] } : {}) }, opts),
      ),
    );
    const prefilterRids = new Set<string>();
    pre.queries.forEach((q, i) => {
      prequeries[q.id ?? `prequery_${i}`] = results[i].response;
      weighted.push({ res: results[i], weight: q.weight });
      if (q.prefilter) for (const rid of Object.keys(results[i].response.resources)) prefilterRids.add(rid);
    });
    if (pre.queries.some((q) => q.prefilter))
      mainReq.resource_filters = [...prefilterRids].filter((r) => !opts.rid || r === opts.rid);
  }
  const main =
    pre && mainReq.resource_filters && mainReq.resource_filters.length === 0 && pre.queries.some((q) => q.prefilter)
      ? { response: emptyFind(query), page: [] }
      : await search.retrieve(kbid, mainReq, opts);
  weighted.unshift({ res: main, weight: pre?.main_query_weight ?? 1 });
  const scores = new Map<string, { p: Ranked; score: number }>();
  for (const { res, weight } of weighted) {
    res.page.forEach((h, rank) => {
      const cur = scores.get(h.id) ?? { p: { id: h.id, rid: h.rid, text: h.text }, score: 0 };
      cur.score += weight / (60 + rank);
      scores.set(h.id, cur);
    });
  }
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score).map((x) => x.p);
  return { main: main.response, prequeries: pre ? prequeries : undefined, ranked };
}

/** A find response with nothing in it (the no-retrieval path). */
export function emptyFind(query: string): FindResponse {
  return {
    resources: {},
    relations: null,
    query,
    rephrased_query: null,
    total: 0,
    page_number: 0,
    page_size: 20,
    next_page: false,
    nodes: null,
    shards: null,
    autofilters: [],
    min_score: { semantic: null, bm25: 0 },
    best_matches: [],
    metrics: null,
    search_after: null,
  };
}
