import { conflict, KboxError } from "../errors.js";
import type { KbStore } from "../store/index.js";

/** What describes an uploaded file besides its bytes (from `x-*` headers or TUS upload-metadata). */
export interface UploadMeta {
  filename?: string;
  contentType: string;
  md5?: string;
  language?: string;
  password?: string;
  extractStrategy?: string;
  splitStrategy?: string;
}

const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[\w!#$&^.+-]+(\s*;.*)?$/;

/** A media type or 415; a missing one is `application/octet-stream` (the type is detected from content). */
export function mediaType(raw: string | null | undefined): string {
  if (raw === null || raw === undefined || raw.trim() === "") return "application/octet-stream";
  const v = raw.trim();
  if (!MEDIA_TYPE.test(v) || v.length > 255)
    throw new KboxError(415, `Unsupported media type: ${JSON.stringify(v.slice(0, 100))}`);
  return v;
}

const printable = (s: string) => s.length > 0 && !s.includes("\uFFFD") && !/[\u0000-\u001f\u007f]/.test(s);

function uriDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A filename sent base64-encoded or URI-encoded (clients do both), decoded. */
export function decodeFilename(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const v = raw.trim();
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && v.length % 4 === 0) {
    const text = Buffer.from(v, "base64").toString("utf8");
    // Plain names such as "data" are valid base64 too: keep the decoding only if it reads as text.
    if (printable(text) && Buffer.from(text, "utf8").toString("base64").replace(/=+$/, "") === v.replace(/=+$/, ""))
      return uriDecode(text);
  }
  return uriDecode(v);
}

/** TUS `upload-metadata`: `key base64,key base64,...` (a key alone means an empty value). */
export function parseTusMetadata(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const [k, v] = pair.trim().split(/\s+/, 2);
    if (!k) continue;
    out[k] = v ? Buffer.from(v, "base64").toString("utf8") : "";
  }
  return out;
}

/** Upload description from TUS metadata (filename is URI-decoded: the hosted SDK encodes it). */
export function metaFromTus(md: Record<string, string>, strategies: { extract?: string; split?: string }): UploadMeta {
  return {
    filename: md.filename ? uriDecode(md.filename) : undefined,
    contentType: mediaType(md.content_type ?? md.filetype),
    md5: md.md5 || undefined,
    language: md.language || undefined,
    password: md.password || undefined,
    extractStrategy: strategies.extract,
    splitStrategy: strategies.split,
  };
}

/** 409 when a file with this md5 is already in the knowledge box. */
export function refuseDuplicate(store: KbStore, md5: string | undefined): void {
  if (!md5) return;
  const want = md5.toLowerCase();
  for (const r of store.resources.values()) {
    for (const f of Object.values(r.fields)) {
      if (f.type === "file" && f.hash === want) throw conflict(`A file with md5 ${want} already exists in resource ${r.id}`);
    }
  }
}
