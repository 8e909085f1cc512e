import { createHash } from "node:crypto";
import { terms } from "../../daemon/models/generate/text.js";
import type { Embedder, EmbedKind } from "../../daemon/models/types.js";

/** A deterministic bag-of-words embedder (hashed stemmed terms, normalised): fast, offline, and similar texts land close. */
export class HashEmbedder implements Embedder {
  readonly id = "test:hash";
  calls = 0;
  constructor(readonly dim = 64) {}

  async embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
    this.calls++;
    return texts.map((t) => {
      const v = new Float32Array(this.dim);
      for (const term of terms(t)) v[createHash("md5").update(term).digest().readUInt32LE(0) % this.dim] += 1;
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  }
}
