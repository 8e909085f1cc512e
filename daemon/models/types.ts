/**
 * Model interfaces. Embedders turn text into vectors for a vectorset; rerankers score
 * (query, passage) pairs; generators (see daemon/ask) produce answers.
 */

/** Queries and passages are embedded differently by many models (prefixes, instructions). */
export type EmbedKind = "query" | "passage";

export interface Embedder {
  /** Stable identity: stored with the vectorset and in backups, e.g. `onnx:Xenova/bge-small-en-v1.5`. */
  readonly id: string;
  readonly dim: number;
  /** Cosine/dot similarity expects normalised vectors; embedders return them normalised. */
  embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

export interface Reranker {
  readonly id: string;
  /** Relevance score per passage, higher is better. */
  score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]>;
}
