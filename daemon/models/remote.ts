/**
 * Embedders behind HTTP: any OpenAI-compatible `/v1/embeddings` endpoint (Ollama, llama.cpp server,
 * vLLM, hosted APIs) and a remote zone's Predict Sentences (`{object: list, data, model, usage}`).
 */
import { KboxError } from "../errors.js";
import { type FetchPolicy, guardedFetch } from "../net/outbound.js";
import { normalize } from "./onnx.js";
import type { Embedder, EmbedKind } from "./types.js";

/** A configured remote entry, as stored in the models settings. */
export interface RemoteEntry {
  name: string;
  provider: "openai" | "predict";
  url: string;
  model?: string;
  api_key?: string;
  dim?: number;
  query_prefix?: string;
  passage_prefix?: string;
}

/** Inputs per request: providers cap batch sizes (OpenAI: 2048; local servers often far less). */
const BATCH = 64;
const TIMEOUT_MS = 120_000;

/** The URL and headers of one provider's call. */
function request(
  e: RemoteEntry,
  input: string[],
): { url: string; init: { method: string; headers: Record<string, string>; body: string } } {
  const base = e.url.replace(/\/+$/, "");
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (e.provider === "openai") {
    if (e.api_key) headers.authorization = `Bearer ${e.api_key}`;
    const url = base.endsWith("/embeddings") ? base : `${base}/embeddings`;
    return { url, init: { method: "POST", headers, body: JSON.stringify({ model: e.model, input, encoding_format: "float" }) } };
  }
  if (e.api_key) headers["x-nuclia-serviceaccount"] = `Bearer ${e.api_key}`;
  const url = base.endsWith("/predict/sentences") ? base : `${base}/api/v1/predict/sentences`;
  return { url, init: { method: "POST", headers, body: JSON.stringify({ input, ...(e.model ? { model: e.model } : {}) }) } };
}

/** Vectors from either provider's `data`: `[{embedding, index}]` (OpenAI) or bare arrays. */
function parseVectors(body: unknown, n: number, where: string): Float32Array[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== n)
    throw new KboxError(502, `${where} returned ${Array.isArray(data) ? data.length : "no"} embeddings for ${n} inputs`);
  const out = new Array<Float32Array>(n);
  data.forEach((item, i) => {
    const vec = Array.isArray(item) ? item : (item as { embedding?: unknown })?.embedding;
    const at = typeof (item as { index?: unknown })?.index === "number" ? (item as { index: number }).index : i;
    if (!Array.isArray(vec) || !vec.every((x) => typeof x === "number"))
      throw new KboxError(502, `${where} returned an embedding that is not a list of numbers`);
    out[at] = Float32Array.from(vec as number[]);
  });
  return out;
}

/**
 * A failure that may go away by itself (unreachable, timeout, 408/429/5xx): `transient` tells the
 * ingestion queue to retry the field later (after `retryAfterMs` when the server said) instead of failing it.
 */
function unavailable(msg: string, retryAfter?: string | null): KboxError {
  const secs = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : undefined;
  const at = retryAfter && secs === undefined ? Date.parse(retryAfter) : Number.NaN;
  const retryAfterMs = secs ?? (Number.isNaN(at) ? undefined : Math.max(0, at - Date.now()));
  return Object.assign(new KboxError(502, msg), { transient: true, retryAfterMs });
}

/** An embedder that calls a remote endpoint; vectors are normalised here whatever the server does. */
export class RemoteEmbedder implements Embedder {
  readonly id: string;

  private constructor(
    private readonly e: RemoteEntry,
    readonly dim: number,
    private readonly policy: FetchPolicy,
  ) {
    this.id = `${e.provider}:${e.model ?? e.name}@${e.url}`;
  }

  /** Connect to an entry; an unknown dimension is discovered with one call. */
  static async connect(e: RemoteEntry, signal: AbortSignal | undefined, policy: FetchPolicy): Promise<RemoteEmbedder> {
    if (e.dim) return new RemoteEmbedder(e, e.dim, policy);
    const [v] = await new RemoteEmbedder(e, 0, policy).embed(["dimension probe"], "passage", signal);
    return new RemoteEmbedder(e, v.length, policy);
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    const prefix = (kind === "query" ? this.e.query_prefix : this.e.passage_prefix) ?? "";
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((t) => prefix + t);
      out.push(...(await this.call(batch, signal)));
    }
    return out;
  }

  private async call(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { url, init } = request(this.e, input);
    const where = `the embeddings endpoint ${url}`;
    const t = AbortSignal.timeout(TIMEOUT_MS);
    let res: Response;
    try {
      res = await guardedFetch(url, { ...init, signal: signal ? AbortSignal.any([signal, t]) : t, maxRedirects: 0 }, this.policy);
    } catch (e) {
      if (e instanceof KboxError) throw e;
      const err = e as Error & { cause?: { code?: string } };
      throw unavailable(`cannot reach ${where}: ${err.cause?.code ?? err.message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      // The reply's body is not repeated: the caller chose the URL, and could read pages with it.
      const msg = `${where} answered ${res.status}`;
      if (res.status === 408 || res.status === 429 || res.status >= 500) throw unavailable(msg, res.headers.get("retry-after"));
      throw new KboxError(502, msg);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new KboxError(502, `${where} did not answer JSON`);
    }
    const vecs = parseVectors(body, input.length, where);
    for (const v of vecs) {
      if (this.dim && v.length !== this.dim)
        throw new KboxError(502, `${where} returned ${v.length} dimensions, expected ${this.dim}`);
      normalize(v);
    }
    return vecs;
  }
}
