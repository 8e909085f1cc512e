import type { AnnSettings, ParagraphHit } from "../store/index.js";
import type { CompiledFilter } from "./filters.js";

/** Resource sets listing at most this many ids go to LanceDB as a `rid IN (…)` prefilter. */
const INLINE_IDS = 1000;
/** Hits fetched at most when a resource set is applied to the hits rather than sent as a list. */
const MAX_FETCH = 4000;
/** ANN candidates re-ranked exactly at most, when fetching more hits than asked for. */
const MAX_REFINED = 8192;

/** One retriever: the best `limit` paragraphs under the prefilter `where`; `ann` scaled for the fetch size. */
export type Retriever = (where: string, limit: number, fetchFactor: number) => Promise<ParagraphHit[]>;

/**
 * Run a retriever under a request's filters, returning its best `window` hits. A small resource set
 * (or none) is part of the prefilter. A large one (labels on 10 % of 100k resources: a list of 10k
 * ids, which LanceDB evaluates slowly on every row) is applied to the hits instead: the retriever
 * fetches enough hits for the set's share of the knowledge box to fill the window, and the hits of
 * other resources are dropped. When that does not fill the window while more hits exist, the
 * retriever runs again with the whole prefilter, so a filtered query always fills `top_k`.
 */
export async function underFilter(run: Retriever, f: CompiledFilter, window: number): Promise<ParagraphHit[]> {
  const listed = f.resources.reduce((n, r) => n + r.listed, 0);
  if (!f.resources.length || listed <= INLINE_IDS) return run(f.sql, window, 1);
  const share = Math.min(...f.resources.map((r) => r.share));
  const limit = Math.ceil((window / Math.max(share, 1e-9)) * 1.5) + 20;
  if (limit > MAX_FETCH) return run(f.sql, window, 1);
  const hits = await run(f.where, limit, limit / window);
  const kept = hits.filter((h) => f.resources.every((r) => r.keep(h.rid)));
  if (kept.length >= window || hits.length < limit) return kept.slice(0, window);
  return run(f.sql, window, 1);
}

/** ANN settings for a fetch `factor` times larger than the window: no more exact re-ranking than MAX_REFINED candidates. */
export function annForFetch(ann: AnnSettings, window: number, factor: number): AnnSettings {
  if (!ann.indexed || factor <= 1) return ann;
  const limit = window * factor;
  return { ...ann, refineFactor: Math.max(1, Math.min(ann.refineFactor, Math.floor(MAX_REFINED / limit))) };
}
