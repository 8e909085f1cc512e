import type { Embedder, EmbedKind } from "../../daemon/models/types.js";
import * as processing from "../../src/api/processing.js";
import type { KboxClient } from "../../src/client/client.js";

/** Poll the processing status until no resource of the knowledge box is PENDING. */
export async function waitIdle(client: KboxClient, kbid: string, timeoutMs = 60_000): Promise<processing.ProcessingStatus> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const st = await client.call(processing.processingStatus, { params: { kbid }, query: { limit: 1 } });
    if (!st.totals.PENDING && !st.queue.pending && !st.queue.running) return st;
    if (Date.now() > until) throw new Error(`still processing: ${JSON.stringify(st.totals)} ${JSON.stringify(st.queue)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A deterministic test embedder (hashed character trigrams, normalised) that counts what it embeds:
 * registered through the model service, it stands in for a model in tests that count embed calls.
 */
export class CountingEmbedder implements Embedder {
  readonly id = "test:trigram-16";
  readonly dim = 16;
  texts: string[] = [];
  calls = 0;
  async embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
    this.calls += 1;
    this.texts.push(...texts);
    return texts.map((t) => {
      const v = new Float32Array(this.dim);
      const s = t.toLowerCase();
      for (let i = 0; i + 3 <= s.length; i++) {
        let h = 0;
        for (let j = i; j < i + 3; j++) h = (h * 31 + s.charCodeAt(j)) >>> 0;
        v[h % this.dim] += 1;
      }
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  }
}
