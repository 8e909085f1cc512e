/**
 * Builds a real BERT encoder at test/bench time: the graph of a Hugging Face BertModel export
 * (embeddings, then per layer self-attention with the additive padding mask, residual + LayerNorm,
 * GELU feed-forward, residual + LayerNorm) with random seeded weights. Compute cost does not depend
 * on weight values, so a random model of a real model's shape measures that model's speed; its
 * vectors carry no meaning. The tokenizer and config files come from tiny-model.ts.
 */
import {
  ATTR_FLOAT,
  ATTR_INT,
  bertRepoFiles,
  bertVocab,
  encodeOnnx,
  FLOAT,
  INT64,
  ints,
  io,
  node,
  rng,
  writeRepoFiles,
} from "./tiny-model.js";

export interface BertModelOptions {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  /** Rows of the word-embedding table; at least the tokenizer's vocabulary (30522, the default). */
  vocab?: number;
  seed?: number;
  /** Writes 1_Pooling/config.json as sentence-transformers repos do. */
  pooling?: "cls" | "mean";
  /**
   * Int8 weights with dynamically quantized activations, as onnxruntime's quantize_dynamic writes
   * the `onnx/model_quantized.onnx` that kbox loads by default (q8); otherwise fp32 `onnx/model.onnx`.
   */
  quantized?: boolean;
}

/** The shape of sentence-transformers/all-MiniLM-L6-v2 (a BERT with 6 layers of 384). */
export const MINILM_L6: BertModelOptions = { layers: 6, hidden: 384, heads: 12, intermediate: 1536, pooling: "mean" };

const MAX_POSITIONS = 512;
const LN_EPS = 1e-12;
/** LayerNormalization is a default-domain op from opset 17; onnxruntime-node runs it natively. */
const OPSET = 17;
const ATTR_INTS = 7;
const INT8 = 3;

/** Draws N(0, std) with Box–Muller over the seeded PRNG. */
function gaussian(rand: () => number, std: number): () => number {
  return () => std * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** Builds the initializer list and the node list of one graph, naming tensors as it goes. */
class GraphBuilder {
  readonly nodes: object[] = [];
  readonly initializer: object[] = [];
  constructor(
    private readonly draw: () => number,
    private readonly quantized: boolean,
  ) {}

  /** A float32 initializer stored as raw_data: `fill` a constant, or random N(0, std) when undefined. */
  weight(name: string, dims: number[], fill?: number): string {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    if (fill === undefined) for (let i = 0; i < data.length; i++) data[i] = this.draw();
    else data.fill(fill);
    this.initializer.push({ name, dims, data_type: FLOAT, raw_data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
    return name;
  }

  scalar(name: string, value: number): string {
    this.initializer.push({ name, dims: [], data_type: FLOAT, raw_data: Buffer.from(new Float32Array([value]).buffer) });
    return name;
  }

  consts(name: string, values: number[], dims?: number[]): string {
    this.initializer.push(ints(name, values, dims));
    return name;
  }

  op(type: string, inputs: string[], out: string, attrs: object[] = []): string {
    this.nodes.push(node(type, inputs, [out], attrs));
    return out;
  }

  /** x @ W + b, with W [n_in, n_out] random and b zero (BERT's initialisation). */
  linear(x: string, name: string, nIn: number, nOut: number): string {
    const mm = this.quantized
      ? this.matMulQ8(x, name, nIn, nOut)
      : this.op("MatMul", [x, this.weight(`${name}.weight`, [nIn, nOut])], `${name}.mm`);
    return this.op("Add", [mm, this.weight(`${name}.bias`, [nOut], 0)], `${name}.out`);
  }

  /** quantize_dynamic's MatMul: uint8 activations × int8 weights (per-tensor, symmetric), rescaled to float. */
  private matMulQ8(x: string, name: string, nIn: number, nOut: number): string {
    const w = new Float32Array(nIn * nOut);
    let max = 0;
    for (let i = 0; i < w.length; i++) {
      w[i] = this.draw();
      max = Math.max(max, Math.abs(w[i]));
    }
    const scale = max / 127;
    const q = Int8Array.from(w, (v) => Math.round(v / scale));
    this.initializer.push({ name: `${name}.weight_q`, dims: [nIn, nOut], data_type: INT8, raw_data: Buffer.from(q.buffer) });
    this.initializer.push({ name: `${name}.weight_zp`, dims: [], data_type: INT8, raw_data: Buffer.from([0]) });
    const outs = [`${name}.xq`, `${name}.x_scale`, `${name}.x_zp`];
    this.nodes.push(node("DynamicQuantizeLinear", [x], outs));
    const acc = this.op("MatMulInteger", [outs[0], `${name}.weight_q`, outs[2], `${name}.weight_zp`], `${name}.mm_i32`);
    const f = this.op("Cast", [acc], `${name}.mm_f`, [{ name: "to", type: ATTR_INT, i: FLOAT }]);
    const s = this.op("Mul", [outs[1], this.scalar(`${name}.weight_scale`, scale)], `${name}.scale`);
    return this.op("Mul", [f, s], `${name}.mm`);
  }

  layerNorm(x: string, name: string, hidden: number): string {
    const attrs = [
      { name: "axis", type: ATTR_INT, i: -1 },
      { name: "epsilon", type: ATTR_FLOAT, f: LN_EPS },
    ];
    return this.op(
      "LayerNormalization",
      [x, this.weight(`${name}.gamma`, [hidden], 1), this.weight(`${name}.beta`, [hidden], 0)],
      `${name}.out`,
      attrs,
    );
  }
}

/** Word + position + token-type embeddings, then LayerNorm: [batch, seq, hidden]. */
function embeddings(g: GraphBuilder, o: Required<BertModelOptions>): string {
  const shape = g.op("Shape", ["input_ids"], "ids_shape");
  const seqLen = g.op("Gather", [shape, g.consts("one_i", [1], [])], "seq_len");
  const positions = g.op("Range", [g.consts("zero_i", [0], []), seqLen, "one_i"], "positions");
  const word = g.op("Gather", [g.weight("emb.word", [o.vocab, o.hidden]), "input_ids"], "emb.word.out");
  const pos = g.op("Gather", [g.weight("emb.position", [MAX_POSITIONS, o.hidden]), positions], "emb.position.out");
  const type = g.op("Gather", [g.weight("emb.token_type", [2, o.hidden]), "token_type_ids"], "emb.token_type.out");
  const sum = g.op("Add", [g.op("Add", [word, pos], "emb.wp"), type], "emb.sum");
  return g.layerNorm(sum, "emb.ln", o.hidden);
}

/** The additive attention mask [batch, 1, 1, seq]: 0 where attended, -10000 on padding (as BERT). */
function additiveMask(g: GraphBuilder): string {
  const m = g.op("Cast", ["attention_mask"], "mask.f", [{ name: "to", type: ATTR_INT, i: FLOAT }]);
  const m4 = g.op("Unsqueeze", [m, g.consts("axes_1_2", [1, 2])], "mask.4d");
  const inv = g.op("Sub", [g.scalar("f_one", 1), m4], "mask.inv");
  return g.op("Mul", [inv, g.scalar("mask_neg", -10000)], "mask.add");
}

/** Multi-head self-attention, residual and LayerNorm. */
function attention(g: GraphBuilder, x: string, mask: string, p: string, o: Required<BertModelOptions>): string {
  const headDim = o.hidden / o.heads;
  const split = g.consts(`${p}.split_shape`, [0, 0, o.heads, headDim]);
  const heads = (name: string, perm: number[]) => {
    const lin = g.linear(x, `${p}.${name}`, o.hidden, o.hidden);
    const r = g.op("Reshape", [lin, split], `${p}.${name}.heads`);
    return g.op("Transpose", [r], `${p}.${name}.t`, [{ name: "perm", type: ATTR_INTS, ints: perm }]);
  };
  const q = heads("query", [0, 2, 1, 3]);
  const kT = heads("key", [0, 2, 3, 1]);
  const v = heads("value", [0, 2, 1, 3]);
  const scores = g.op("MatMul", [q, kT], `${p}.scores`);
  const scaled = g.op("Div", [scores, g.scalar(`${p}.sqrt_d`, Math.sqrt(headDim))], `${p}.scaled`);
  const masked = g.op("Add", [scaled, mask], `${p}.masked`);
  const probs = g.op("Softmax", [masked], `${p}.probs`, [{ name: "axis", type: ATTR_INT, i: -1 }]);
  const ctx = g.op("MatMul", [probs, v], `${p}.ctx`);
  const ctxT = g.op("Transpose", [ctx], `${p}.ctx.t`, [{ name: "perm", type: ATTR_INTS, ints: [0, 2, 1, 3] }]);
  const merged = g.op("Reshape", [ctxT, g.consts(`${p}.merge_shape`, [0, 0, o.hidden])], `${p}.ctx.merged`);
  const out = g.linear(merged, `${p}.output`, o.hidden, o.hidden);
  return g.layerNorm(g.op("Add", [out, x], `${p}.residual`), `${p}.ln`, o.hidden);
}

/** GELU (exact, erf form as in BERT exports; onnxruntime fuses it), FFN, residual and LayerNorm. */
function feedForward(g: GraphBuilder, x: string, p: string, o: Required<BertModelOptions>): string {
  const h = g.linear(x, `${p}.intermediate`, o.hidden, o.intermediate);
  const erf = g.op("Erf", [g.op("Div", [h, g.scalar(`${p}.sqrt2`, Math.SQRT2)], `${p}.gelu.div`)], `${p}.gelu.erf`);
  const onePlus = g.op("Add", [erf, g.scalar(`${p}.gelu.one`, 1)], `${p}.gelu.add`);
  const gelu = g.op("Mul", [g.op("Mul", [h, onePlus], `${p}.gelu.mul`), g.scalar(`${p}.gelu.half`, 0.5)], `${p}.gelu.out`);
  const out = g.linear(gelu, `${p}.ffn_out`, o.intermediate, o.hidden);
  return g.layerNorm(g.op("Add", [out, x], `${p}.residual`), `${p}.ln`, o.hidden);
}

/** The ONNX bytes of a BERT encoder with output `last_hidden_state` [batch, seq, hidden]. */
export function bertOnnx(opts: BertModelOptions & { vocab: number }): Uint8Array {
  const o: Required<BertModelOptions> = { seed: 11, pooling: "mean", quantized: false, ...opts };
  if (o.hidden % o.heads !== 0) throw new Error(`hidden ${o.hidden} is not a multiple of heads ${o.heads}`);
  const g = new GraphBuilder(gaussian(rng(o.seed), 0.02), o.quantized);
  let h = embeddings(g, o);
  const mask = additiveMask(g);
  for (let l = 0; l < o.layers; l++) h = feedForward(g, attention(g, h, mask, `l${l}.attn`, o), `l${l}.ffn`, o);
  g.op("Identity", [h], "last_hidden_state");
  const input = ["input_ids", "attention_mask", "token_type_ids"].map((n) => io(n, INT64, ["batch", "seq"]));
  const output = [io("last_hidden_state", FLOAT, ["batch", "seq", o.hidden])];
  return encodeOnnx({ name: "bert", node: g.nodes, initializer: g.initializer, input, output }, OPSET);
}

/** The files of a BERT model repo (config, tokenizer, the ONNX file), path -> bytes. */
export function bertModelFiles(opts: BertModelOptions): Map<string, Buffer> {
  const words = bertVocab();
  const vocab = opts.vocab ?? words.length;
  if (vocab < words.length) throw new Error(`vocab ${vocab} is smaller than the tokenizer's ${words.length}`);
  const config = {
    model_type: "bert",
    architectures: ["BertModel"],
    hidden_size: opts.hidden,
    vocab_size: vocab,
    max_position_embeddings: MAX_POSITIONS,
    num_attention_heads: opts.heads,
    num_hidden_layers: opts.layers,
    intermediate_size: opts.intermediate,
    hidden_act: "gelu",
    layer_norm_eps: LN_EPS,
    type_vocab_size: 2,
  };
  const files = bertRepoFiles(config, words, opts.pooling);
  files.set(bertOnnxPath(opts), Buffer.from(bertOnnx({ ...opts, vocab })));
  return files;
}

/** Where the ONNX file goes: the file names of Xenova repos, which kbox reads as the dtype. */
export const bertOnnxPath = (opts: { quantized?: boolean }) => (opts.quantized ? "onnx/model_quantized.onnx" : "onnx/model.onnx");

/**
 * Write a random-weights BERT encoder repo into `dir` (a local model folder). `writeBertModel(dir,
 * MINILM_L6)` gives the all-MiniLM-L6-v2 shape in fp32 (~90 MB); add `quantized: true` for its q8 form.
 */
export function writeBertModel(dir: string, opts: BertModelOptions): Map<string, Buffer> {
  const files = bertModelFiles(opts);
  writeRepoFiles(dir, files);
  return files;
}
