import type { Embedder } from "../models/types.js";
import type { ParagraphRow, ParagraphStore } from "../store/paragraphs.js";

/** A vectorset of a knowledge box and the embedder that fills it. */
export interface VectorsetEmbedder {
  vectorset: string;
  embedder: Embedder;
}

/** Texts per embedding call: large enough to batch well on CPU, small enough to stay responsive. */
const BATCH = 32;

/**
 * Give every row a vector in every vectorset. Paragraphs whose text is unchanged since the field was
 * last indexed reuse their stored vector (matched by content hash); only new text is embedded.
 * Returns how many texts were embedded.
 */
export async function embedRows(
  store: ParagraphStore,
  rid: string,
  field: string,
  rows: ParagraphRow[],
  embedders: VectorsetEmbedder[],
  signal?: AbortSignal,
): Promise<number> {
  let embedded = 0;
  for (const { vectorset, embedder } of embedders) {
    await store.ensureVectorset(vectorset, embedder.dim);
    const known = new Map<string, Float32Array | number[]>(await store.existingVectors(rid, field, vectorset));
    const todo = new Map<string, string>();
    for (const r of rows) if (!known.has(r.hash)) todo.set(r.hash, r.text);
    const hashes = [...todo.keys()];
    for (let i = 0; i < hashes.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = hashes.slice(i, i + BATCH);
      const vectors = await embedder.embed(
        batch.map((h) => todo.get(h) as string),
        "passage",
        signal,
      );
      for (let j = 0; j < batch.length; j++) known.set(batch[j], vectors[j]);
      embedded += batch.length;
    }
    for (const r of rows) {
      r.vectors ??= {};
      r.vectors[vectorset] = known.get(r.hash) as Float32Array | number[];
    }
  }
  return embedded;
}
