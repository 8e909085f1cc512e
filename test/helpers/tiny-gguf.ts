/**
 * Writes a tiny llama-architecture GGUF model at test time (GGUF v3, F32 tensors, seeded random
 * weights, a SentencePiece-style vocabulary with byte fallback). Its text is gibberish, but it
 * exercises the real node-llama-cpp load → context → sample path.
 */
import { writeFileSync } from "node:fs";

const T = { U32: 4, I32: 5, F32: 6, STRING: 8, ARRAY: 9 } as const;
type Val = { t: "u32" | "f32" | "str"; v: number | string } | { t: "arr"; of: "str" | "f32" | "i32"; v: (string | number)[] };

class Buf {
  parts: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.parts.push(b);
    this.size += b.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  f32(n: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }
  pad(align: number) {
    const n = (align - (this.size % align)) % align;
    if (n) this.push(Buffer.alloc(n));
  }
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** Write the model to `path`. */
export function writeTinyGguf(path: string): void {
  const words = [
    "the",
    "a",
    "is",
    "on",
    "at",
    "and",
    "to",
    "release",
    "friday",
    "office",
    "opens",
    "ship",
    "team",
    "every",
    "cat",
    ".",
    ",",
  ];
  const tokens = [
    "<unk>",
    "<s>",
    "</s>",
    ...Array.from({ length: 256 }, (_, i) => `<0x${i.toString(16).toUpperCase().padStart(2, "0")}>`),
    ...words.map((w) => `▁${w}`),
    ...words.map((w) => w),
  ];
  const types = tokens.map((t, i) => (i === 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1));
  const scores = tokens.map((_, i) => (i < 259 ? 0 : -i));
  const nVocab = tokens.length;
  const nEmbd = 32;
  const nFf = 64;
  const nHead = 4;
  const kv: [string, Val][] = [
    ["general.architecture", { t: "str", v: "llama" }],
    ["general.name", { t: "str", v: "kbox-tiny" }],
    ["general.alignment", { t: "u32", v: 32 }],
    ["llama.context_length", { t: "u32", v: 512 }],
    ["llama.embedding_length", { t: "u32", v: nEmbd }],
    ["llama.block_count", { t: "u32", v: 1 }],
    ["llama.feed_forward_length", { t: "u32", v: nFf }],
    ["llama.attention.head_count", { t: "u32", v: nHead }],
    ["llama.attention.head_count_kv", { t: "u32", v: nHead }],
    ["llama.attention.layer_norm_rms_epsilon", { t: "f32", v: 1e-5 }],
    ["llama.rope.dimension_count", { t: "u32", v: nEmbd / nHead }],
    ["tokenizer.ggml.model", { t: "str", v: "llama" }],
    ["tokenizer.ggml.tokens", { t: "arr", of: "str", v: tokens }],
    ["tokenizer.ggml.scores", { t: "arr", of: "f32", v: scores }],
    ["tokenizer.ggml.token_type", { t: "arr", of: "i32", v: types }],
    ["tokenizer.ggml.bos_token_id", { t: "u32", v: 1 }],
    ["tokenizer.ggml.eos_token_id", { t: "u32", v: 2 }],
    ["tokenizer.ggml.unknown_token_id", { t: "u32", v: 0 }],
  ];
  const tensors: [string, number[]][] = [
    ["token_embd.weight", [nEmbd, nVocab]],
    ["output_norm.weight", [nEmbd]],
    ["output.weight", [nEmbd, nVocab]],
    ["blk.0.attn_norm.weight", [nEmbd]],
    ["blk.0.attn_q.weight", [nEmbd, nEmbd]],
    ["blk.0.attn_k.weight", [nEmbd, nEmbd]],
    ["blk.0.attn_v.weight", [nEmbd, nEmbd]],
    ["blk.0.attn_output.weight", [nEmbd, nEmbd]],
    ["blk.0.ffn_norm.weight", [nEmbd]],
    ["blk.0.ffn_gate.weight", [nEmbd, nFf]],
    ["blk.0.ffn_up.weight", [nEmbd, nFf]],
    ["blk.0.ffn_down.weight", [nFf, nEmbd]],
  ];
  const h = new Buf();
  h.push(Buffer.from("GGUF"));
  h.u32(3);
  h.u64(tensors.length);
  h.u64(kv.length);
  for (const [k, val] of kv) {
    h.str(k);
    if (val.t === "u32") h.u32(T.U32), h.u32(val.v as number);
    else if (val.t === "f32") h.u32(T.F32), h.f32(val.v as number);
    else if (val.t === "str") h.u32(T.STRING), h.str(val.v as string);
    else {
      h.u32(T.ARRAY);
      h.u32(val.of === "str" ? T.STRING : val.of === "f32" ? T.F32 : T.I32);
      h.u64(val.v.length);
      for (const x of val.v) val.of === "str" ? h.str(x as string) : val.of === "f32" ? h.f32(x as number) : h.i32(x as number);
    }
  }
  let offset = 0;
  const sizes: number[] = [];
  for (const [name, dims] of tensors) {
    h.str(name);
    h.u32(dims.length);
    for (const d of dims) h.u64(d);
    h.u32(0); // F32
    h.u64(offset);
    const bytes = dims.reduce((a, b) => a * b, 1) * 4;
    sizes.push(bytes);
    offset += Math.ceil(bytes / 32) * 32;
  }
  h.pad(32);
  const rand = rng(42);
  tensors.forEach(([name], i) => {
    const n = sizes[i] / 4;
    const data = Buffer.alloc(Math.ceil(sizes[i] / 32) * 32);
    for (let j = 0; j < n; j++) data.writeFloatLE(name.endsWith("norm.weight") ? 1 : rand() * 0.5, j * 4);
    h.push(data);
  });
  writeFileSync(path, Buffer.concat(h.parts));
}
