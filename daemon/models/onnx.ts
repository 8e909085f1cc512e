/**
 * In-process ONNX models through @huggingface/transformers (onnxruntime-node on the CPU), loaded
 * only from local folders: kbox downloads itself (see pull.ts) so that nothing fetches at run time.
 */
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from "@huggingface/transformers";
import { KboxError } from "../errors.js";
import type { Manifest } from "./manifest.js";
import type { Embedder, EmbedKind, Reranker } from "./types.js";

type Transformers = typeof import("@huggingface/transformers");
let loaded: Promise<Transformers> | undefined;

/**
 * The transformers module, configured once for local-only loading. Models are opened by absolute
 * folder path with `localModelPath` at the filesystem root, so that several caches (tests start
 * many daemons in one process) never race on this global.
 */
export function transformers(): Promise<Transformers> {
  loaded ??= import("@huggingface/transformers").then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.localModelPath = "/";
    t.env.useFSCache = false;
    t.env.useBrowserCache = false;
    t.env.logLevel = t.LogLevel.ERROR;
    return t;
  });
  return loaded;
}

/** Intra-op threads per model unless told (the daemon passes KBOX_MODEL_THREADS): the machine budget is 2 cores. */
export const DEFAULT_MODEL_THREADS = 2;

/** Texts per forward pass; sorted by length first so that a batch pads little. */
const BATCH = 32;
const MAX_TOKENS = 512;

interface Loaded {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
}

async function load(dir: string, m: Manifest, threads: number): Promise<Loaded> {
  const t = await transformers();
  const [subfolder, file] = [
    m.onnx_file.slice(0, m.onnx_file.lastIndexOf("/")),
    m.onnx_file.slice(m.onnx_file.lastIndexOf("/") + 1),
  ];
  const dtype = file.includes("_quantized") ? "q8" : "fp32";
  const session_options = { intraOpNumThreads: threads, interOpNumThreads: 1 };
  try {
    const tokenizer = await t.AutoTokenizer.from_pretrained(dir);
    const Auto = m.kind === "reranker" ? t.AutoModelForSequenceClassification : t.AutoModel;
    const model = await Auto.from_pretrained(dir, { dtype, subfolder, session_options, device: "cpu" });
    return { tokenizer, model };
  } catch (e) {
    throw new KboxError(500, `cannot load model ${m.id} from ${dir}: ${(e as Error).message}`);
  }
}

/** Run `fn` one at a time: onnxruntime already uses every thread it was given. */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error("aborted");
}

/** An ONNX sentence embedder: tokenizer, encoder, CLS or masked-mean pooling, L2 normalisation. */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  private readonly serial = new Serial();

  private constructor(
    private readonly m: Manifest,
    private readonly l: Loaded,
    readonly dim: number,
  ) {
    this.id = `onnx:${m.id}`;
  }

  /** Load from an installed folder and check the output dimension against the manifest. */
  static async open(dir: string, m: Manifest, threads = DEFAULT_MODEL_THREADS): Promise<OnnxEmbedder> {
    const l = await load(dir, m, threads);
    const probe = new OnnxEmbedder(m, l, m.dim);
    const [v] = await probe.embed(["kbox"], "passage");
    if (m.dim && v.length !== m.dim)
      throw new KboxError(500, `model ${m.id} produces ${v.length} dimensions, its config says ${m.dim}`);
    return v.length === m.dim ? probe : new OnnxEmbedder(m, l, v.length);
  }

  async embed(texts: string[], kind: EmbedKind, signal?: AbortSignal): Promise<Float32Array[]> {
    const prefix = kind === "query" ? this.m.query_prefix : this.m.passage_prefix;
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < order.length; i += BATCH) {
      checkAbort(signal);
      const idx = order.slice(i, i + BATCH);
      const vecs = await this.serial.run(() => this.forward(idx.map((j) => prefix + texts[j])));
      idx.forEach((j, k) => {
        out[j] = vecs[k];
      });
    }
    return out;
  }

  private async forward(batch: string[]): Promise<Float32Array[]> {
    const inputs = this.l.tokenizer(batch, { padding: true, truncation: true, max_length: MAX_TOKENS });
    const output = (await this.l.model(inputs)) as Record<string, Tensor>;
    const hidden = output.last_hidden_state ?? output.token_embeddings ?? Object.values(output)[0];
    const [b, seq, dim] = hidden.dims as number[];
    const data = hidden.data as Float32Array;
    const mask = inputs.attention_mask.data as BigInt64Array;
    const vecs: Float32Array[] = [];
    for (let r = 0; r < b; r++) {
      const v = new Float32Array(dim);
      if (this.m.pooling === "cls") v.set(data.subarray(r * seq * dim, r * seq * dim + dim));
      else meanPool(v, data, mask, r, seq, dim);
      vecs.push(this.m.normalize ? normalize(v) : v);
    }
    return vecs;
  }

  async close(): Promise<void> {
    await this.l.model.dispose();
  }
}

function meanPool(v: Float32Array, data: Float32Array, mask: BigInt64Array, r: number, seq: number, dim: number): void {
  let n = 0;
  for (let t = 0; t < seq; t++) {
    if (mask[r * seq + t] === 0n) continue;
    n++;
    const off = (r * seq + t) * dim;
    for (let d = 0; d < dim; d++) v[d] += data[off + d];
  }
  if (n > 0) for (let d = 0; d < dim; d++) v[d] /= n;
}

/** L2-normalise in place. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

/** A cross-encoder: scores (query, passage) pairs; one logit → sigmoid, two → softmax of the positive class. */
export class OnnxReranker implements Reranker {
  readonly id: string;
  private readonly serial = new Serial();

  private constructor(
    private readonly l: Loaded,
    id: string,
  ) {
    this.id = `onnx:${id}`;
  }

  static async open(dir: string, m: Manifest, threads = DEFAULT_MODEL_THREADS): Promise<OnnxReranker> {
    return new OnnxReranker(await load(dir, m, threads), m.id);
  }

  async score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < passages.length; i += BATCH) {
      checkAbort(signal);
      const batch = passages.slice(i, i + BATCH);
      out.push(...(await this.serial.run(() => this.forward(query, batch))));
    }
    return out;
  }

  private async forward(query: string, passages: string[]): Promise<number[]> {
    const inputs = this.l.tokenizer(new Array(passages.length).fill(query), {
      text_pair: passages,
      padding: true,
      truncation: true,
      max_length: MAX_TOKENS,
    });
    const { logits } = (await this.l.model(inputs)) as { logits: Tensor };
    const [b, labels] = logits.dims as number[];
    const d = logits.data as Float32Array;
    const scores: number[] = [];
    for (let r = 0; r < b; r++) {
      if (labels === 1) scores.push(1 / (1 + Math.exp(-d[r])));
      else scores.push(1 / (1 + Math.exp(d[r * labels] - d[r * labels + labels - 1])));
    }
    return scores;
  }

  async close(): Promise<void> {
    await this.l.model.dispose();
  }
}
