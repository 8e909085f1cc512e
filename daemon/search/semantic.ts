import type { Table } from "../store/db.js";
import { vectorColumn } from "../store/paragraphs.js";
import { type Hit, hitsOf, RESULT_COLUMNS } from "./keyword.js";
import { FALSE, TRUE } from "./sql.js";

/** ANN search settings once a vector index exists; refinement re-ranks candidates with exact distances. */
export interface AnnSettings {
  indexed: boolean;
  nprobes: number;
  refineFactor: number;
}

/**
 * Nearest paragraphs by cosine similarity (score = 1 - cosine distance), under a prefilter.
 * Exact while the table has no vector index; ANN with refinement after.
 */
export async function semanticSearch(
  table: Table,
  vectorset: string,
  vector: number[],
  filter: string,
  limit: number,
  ann?: AnnSettings,
): Promise<Hit[]> {
  const col = vectorColumn(vectorset);
  // Rows without a vector (not embedded yet) are skipped by the search itself; an IS NOT NULL
  // filter would only turn the search into a filtered scan.
  const where = filter;
  if (where === FALSE) return [];
  let q = table
    .query()
    .nearestTo(vector)
    .column(col)
    .distanceType("cosine")
    .select([...RESULT_COLUMNS, "_distance"])
    .limit(limit);
  if (where !== TRUE) q = q.where(where);
  if (ann?.indexed) q = q.nprobes(ann.nprobes).refineFactor(ann.refineFactor);
  else q = q.bypassVectorIndex();
  return hitsOf(await q.toArrow(), "_distance", (d) => 1 - d);
}
