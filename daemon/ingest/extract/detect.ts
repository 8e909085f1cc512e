import { open } from "node:fs/promises";
import { extname } from "node:path";
import { fileTypeFromBuffer, fileTypeFromFile } from "file-type";
import { looksLikeTroff } from "./man.js";

/** What a file is, judged by its content first and its name or declared type second. */
export interface Detected {
  mime: string;
  /** For text files: the encoding to decode them with. */
  encoding?: "utf-8" | "latin1" | "utf-16le" | "utf-16be";
}

const SNIFF_BYTES = 64 * 1024;

const TEXT_BY_EXT: Record<string, string> = {
  ".txt": "text/plain",
  ".text": "text/plain",
  ".log": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".mdx": "text/markdown",
  ".html": "text/html",
  ".htm": "text/html",
  ".xhtml": "text/html",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".ndjson": "application/x-ndjson",
  ".rst": "text/x-rst",
  ".xml": "application/xml",
};

/** Source code extensions, indexed as plain text with their language as the MIME subtype. */
const CODE_EXT = new Set([
  ".js",
  ".mjs",
  ".cjs",
  ".jsx",
  ".ts",
  ".tsx",
  ".py",
  ".rb",
  ".go",
  ".rs",
  ".java",
  ".kt",
  ".scala",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".cs",
  ".php",
  ".swift",
  ".m",
  ".sh",
  ".bash",
  ".zsh",
  ".sql",
  ".r",
  ".lua",
  ".pl",
  ".yaml",
  ".yml",
  ".toml",
  ".ini",
  ".cfg",
  ".css",
  ".scss",
  ".vue",
  ".svelte",
  ".dart",
  ".ex",
  ".exs",
  ".erl",
  ".hs",
  ".ml",
  ".clj",
  ".tf",
  ".proto",
  ".gradle",
  ".bat",
  ".ps1",
  ".dockerfile",
]);

/** Detects the MIME type of a file from its bytes (magic numbers, then a text sniff), then its name. */
export async function detectFile(
  path: string,
  filename?: string,
  contentType?: string,
  bytes?: Buffer,
): Promise<Detected | null> {
  const head = bytes ? bytes.subarray(0, SNIFF_BYTES) : await readHead(path);
  // A UTF-16 byte order mark looks like an MP3 frame header to magic-number sniffing: check it first.
  // Clean text skips magic sniffing too (it is the slow part for text), except for all-ASCII PDFs.
  const textual = utf16Bom(head) ?? textEncoding(head);
  const sniff = !textual || textual === "latin1" || head.subarray(0, 1024).includes("%PDF-");
  const ft = sniff ? await (bytes ? fileTypeFromBuffer(bytes) : fileTypeFromFile(path)).catch(() => undefined) : undefined;
  if (ft && ft.mime !== "application/xml") return { mime: ft.mime };
  const encoding = textual;
  if (!encoding) return null;
  return { mime: textMime(head, encoding, filename ?? path, contentType), encoding };
}

async function readHead(path: string): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** UTF-16 text by its byte order mark, when the rest really decodes as text. */
function utf16Bom(head: Buffer): "utf-16le" | "utf-16be" | null {
  if (head.length < 4) return null;
  const enc = head[0] === 0xff && head[1] === 0xfe ? "utf-16le" : head[0] === 0xfe && head[1] === 0xff ? "utf-16be" : null;
  if (!enc) return null;
  const text = new TextDecoder(enc).decode(head.subarray(2, head.length & ~1));
  const control = text.match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return control / Math.max(1, text.length) < 0.01 ? enc : null;
}

/** The encoding of a text file, or null for binary content. */
function textEncoding(head: Buffer): Detected["encoding"] | null {
  if (head.includes(0)) return null;
  // The sample may end inside a multi-byte character: drop up to 3 trailing bytes before validating.
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, head.length - cut));
      return "utf-8";
    } catch {}
  }
  let control = 0;
  for (const c of head) if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  return control / Math.max(1, head.length) < 0.01 ? "latin1" : null;
}

function textMime(head: Buffer, encoding: NonNullable<Detected["encoding"]>, name: string, contentType?: string): string {
  const sample = head
    .subarray(0, 4096)
    .toString(encoding === "utf-16be" ? "latin1" : encoding)
    .trimStart();
  const low = sample.slice(0, 1024).toLowerCase();
  if (/^(\ufeff)?<!doctype html|^(\ufeff)?<html[\s>]/.test(low) || /<(head|body)[\s>]/.test(low)) return "text/html";
  const ext = extname(name).toLowerCase();
  if (TEXT_BY_EXT[ext]) return TEXT_BY_EXT[ext];
  if (looksLikeTroff(sample)) return "text/troff";
  if (CODE_EXT.has(ext) || /^dockerfile$|^makefile$/i.test(name.split("/").pop() ?? ""))
    return `text/x-source;ext=${ext.slice(1) || "txt"}`;
  const declared = contentType?.split(";")[0].trim().toLowerCase();
  if (declared && (declared.startsWith("text/") || declared.endsWith("json"))) return declared;
  if (/^\s*[{[]/.test(sample) && /[}\]]\s*$/.test(head.toString("utf-8").slice(-64))) return "application/json";
  return "text/plain";
}
