import { KboxError } from "../../errors.js";
import { type FetchPolicy, guardedFetch } from "../../net/outbound.js";
import { errorMessage, ndjsonLines } from "./sse.js";
import { type GenChunk, type GenerateRequest, GenerationError, type Generator } from "./types.js";

/** A zone (hosted service or another kbox daemon) whose Predict Chat answers for us. */
export interface PredictEndpoint {
  /** Zone base URL, e.g. `https://europe-1.example.cloud` or `http://127.0.0.1:8080`. */
  url: string;
  /** The zone's model name; empty for its default. */
  model: string;
  /** Understanding-client key (sent as X-NUCLIA-NUAKEY) or a service-account key. */
  apiKey?: string;
  headers?: Record<string, string>;
  /** What the daemon may reach (daemon/net/outbound.ts). */
  policy: FetchPolicy;
}

/** One line of Predict Chat's stream: `{"chunk": {...}}`. */
interface PredictLine {
  chunk?: {
    type: string;
    text?: string;
    object?: Record<string, unknown>;
    input_tokens?: number;
    output_tokens?: number;
    code?: string;
    details?: string;
  };
}

/** The remote zone's predict chat: kbox sends the question, context and rendered prompt; the zone generates. */
export class PredictGenerator implements Generator {
  readonly kind = "predict" as const;
  readonly id: string;

  constructor(private readonly ep: PredictEndpoint) {
    this.id = `predict:${ep.model}`;
  }

  /** The Predict Chat body for a generation request. */
  static body(req: GenerateRequest): Record<string, unknown> {
    const system = req.messages.find((m) => m.role === "system")?.content;
    const turns = req.messages.filter((m) => m.role !== "system");
    const last = turns.pop();
    return {
      question: req.question,
      retrieval: true,
      system: system ?? null,
      chat_history: turns.map((m) => ({ author: m.role === "user" ? "USER" : "NUCLIA", text: m.content })),
      query_context: Object.fromEntries(req.context.map((c) => [c.id, c.text])),
      query_context_order: Object.fromEntries(req.context.map((c, i) => [c.id, i])),
      user_prompt: last ? { prompt: last.content } : null,
      format_prompt: false,
      max_tokens: req.maxTokens ?? null,
      seed: req.seed ?? null,
      json_schema: req.jsonSchema ?? null,
      reasoning: req.reasoning ?? false,
      citations: false,
    };
  }

  async *generate(req: GenerateRequest): AsyncIterable<GenChunk> {
    const base = this.ep.url.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
    const url = `${base}/api/v1/predict/chat${this.ep.model ? `?model=${encodeURIComponent(this.ep.model)}` : ""}`;
    const headers: Record<string, string> = { "content-type": "application/json", ...this.ep.headers };
    if (this.ep.apiKey) headers["x-nuclia-nuakey"] = `Bearer ${this.ep.apiKey}`;
    let res: Response;
    try {
      const body = JSON.stringify(PredictGenerator.body(req));
      const init = { method: "POST", headers, body, signal: req.signal, maxRedirects: 0 };
      res = await guardedFetch(url, init, this.ep.policy);
    } catch (e) {
      if (e instanceof KboxError) throw new GenerationError(e.message);
      throw new GenerationError(`cannot reach predict endpoint ${this.ep.url}: ${(e as Error).cause ?? (e as Error).message}`);
    }
    if (!res.ok || !res.body) {
      const detail = await errorMessage(res);
      throw new GenerationError(`predict endpoint answered ${res.status}${detail ? `: ${detail}` : ""}`);
    }
    try {
      for await (const line of ndjsonLines(res.body)) {
        const c = (line as PredictLine).chunk;
        if (!c) continue;
        if (c.type === "text" && c.text) yield { type: "text", text: c.text };
        else if (c.type === "reasoning" && c.text) yield { type: "reasoning", text: c.text };
        else if (c.type === "object" && c.object) yield { type: "json", object: c.object };
        else if (c.type === "meta") yield { type: "usage", input: c.input_tokens ?? 0, output: c.output_tokens ?? 0 };
        else if (c.type === "status" && c.code && c.code !== "0")
          throw new GenerationError(`predict chat failed: ${c.details ?? c.code}`);
        else if (c.type === "error") throw new GenerationError(`predict chat failed: ${c.details ?? c.text ?? "error"}`);
      }
    } catch (e) {
      if (req.signal?.aborted) return;
      if (e instanceof GenerationError) throw e;
      throw new GenerationError(`predict stream failed: ${(e as Error).message}`);
    }
  }
}
