/**
 * Models kbox knows by name: how each pools, normalises and prefixes, and which files to pull.
 * Anything else on the hub can be pulled too; its settings then come from its own files
 * (config.json, 1_Pooling/config.json) or the options given to `kbox models pull`.
 */

export type ModelKind = "embedder" | "reranker";
export type Pooling = "cls" | "mean";

/** How to run one ONNX model; stored in the installed model's manifest. */
export interface OnnxSettings {
  kind: ModelKind;
  pooling: Pooling;
  normalize: boolean;
  query_prefix: string;
  passage_prefix: string;
  /** The ONNX file inside the repo: `onnx/model_quantized.onnx` (q8) or `onnx/model.onnx` (fp32). */
  onnx_file: string;
}

export interface KnownModel extends OnnxSettings {
  id: string;
  dim: number;
  description: string;
  /** Files to fetch besides the ONNX file, when the hub API cannot list them. */
  files: string[];
  /** Rough download size, for `kbox models list`. */
  size_mb: number;
}

const TOKENIZER_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"];

/** The default English embedder: small, fast, strong on retrieval. */
export const DEFAULT_ENGLISH = "Xenova/bge-small-en-v1.5";
/** The default multilingual embedder. */
export const DEFAULT_MULTILINGUAL = "Xenova/multilingual-e5-small";
/** The default cross-encoder reranker. */
export const DEFAULT_RERANKER = "Xenova/ms-marco-MiniLM-L-6-v2";

export const KNOWN_MODELS: KnownModel[] = [
  {
    id: DEFAULT_ENGLISH,
    kind: "embedder",
    dim: 384,
    pooling: "cls",
    normalize: true,
    query_prefix: "Represent this sentence for searching relevant passages: ",
    passage_prefix: "",
    onnx_file: "onnx/model_quantized.onnx",
    files: TOKENIZER_FILES,
    size_mb: 34,
    description: "English, 384 dims (BAAI bge-small-en-v1.5, int8)",
  },
  {
    id: DEFAULT_MULTILINGUAL,
    kind: "embedder",
    dim: 384,
    pooling: "mean",
    normalize: true,
    query_prefix: "query: ",
    passage_prefix: "passage: ",
    onnx_file: "onnx/model_quantized.onnx",
    files: TOKENIZER_FILES,
    size_mb: 118,
    description: "100 languages, 384 dims (intfloat multilingual-e5-small, int8)",
  },
  {
    id: "Xenova/all-MiniLM-L6-v2",
    kind: "embedder",
    dim: 384,
    pooling: "mean",
    normalize: true,
    query_prefix: "",
    passage_prefix: "",
    onnx_file: "onnx/model_quantized.onnx",
    files: TOKENIZER_FILES,
    size_mb: 23,
    description: "English, 384 dims, fastest (sentence-transformers all-MiniLM-L6-v2, int8)",
  },
  {
    id: DEFAULT_RERANKER,
    kind: "reranker",
    dim: 0,
    pooling: "cls",
    normalize: false,
    query_prefix: "",
    passage_prefix: "",
    onnx_file: "onnx/model_quantized.onnx",
    files: TOKENIZER_FILES,
    size_mb: 23,
    description: "cross-encoder reranker, English (ms-marco-MiniLM-L-6-v2, int8)",
  },
];

/** A known model by full id (`Xenova/bge-small-en-v1.5`) or short name (`bge-small-en-v1.5`), case-insensitive. */
export function knownModel(ref: string): KnownModel | undefined {
  const r = ref.replace(/^onnx:/, "").toLowerCase();
  return KNOWN_MODELS.find((m) => m.id.toLowerCase() === r || shortName(m.id).toLowerCase() === r);
}

/** The part after the owner: what a vectorset of this model is called. */
export const shortName = (id: string) => id.slice(id.lastIndexOf("/") + 1);

/** Files that tell how to tokenize and pool; fetched when the repo has them. */
export const SUPPORT_FILES = [...TOKENIZER_FILES, "1_Pooling/config.json", "config_sentence_transformers.json", "vocab.txt"];

/** Which ONNX file to use from a repo's listing, preferring the requested dtype. */
export function pickOnnxFile(files: string[], dtype?: "q8" | "fp32"): string | undefined {
  const order =
    dtype === "fp32" ? ["onnx/model.onnx", "onnx/model_quantized.onnx"] : ["onnx/model_quantized.onnx", "onnx/model.onnx"];
  return order.find((f) => files.includes(f));
}

/** Hub repo ids: `owner/name` with the characters the hub allows. */
export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;
