import type { Readable } from "node:stream";
import type { FileField } from "../../src/api/fields.js";
import { KboxError, notFound } from "../errors.js";
import type { ResourceRef, ResourceService } from "../resources/service.js";

/** A file field's bytes to send: status, headers and the stream (a byte range when asked). */
export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range); undefined when absent, 416 when unsatisfiable. */
export function parseRange(header: string | null | undefined, size: number): { start: number; end: number } | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  const unsatisfiable = () => new KboxError(416, "Range Not Satisfiable", { "content-range": `bytes */${size}` });
  if (!m || (m[1] === "" && m[2] === "")) throw unsatisfiable();
  let start: number;
  let end: number;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) throw unsatisfiable();
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || end < start) throw unsatisfiable();
  return { start, end };
}

/** RFC 6266 filename parameters: an ASCII fallback and the UTF-8 name. */
function disposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Open a file field's stored bytes for download. */
export async function openDownload(
  resources: ResourceService,
  kbid: string,
  ref: ResourceRef,
  fieldId: string,
  range: string | null,
  inline = false,
): Promise<Download> {
  const { store, doc } = await resources.fieldDoc(kbid, ref, "file", fieldId);
  if (!doc.blob) throw notFound("The file field has no stored content");
  const size = await store.blobs.size(doc.blob);
  if (size === undefined) throw notFound("The file field has no stored content");
  const file = (doc.value as FileField).file;
  const headers: Record<string, string> = {
    "content-type": file.content_type || "application/octet-stream",
    "accept-ranges": "bytes",
    "content-disposition": disposition(inline ? "inline" : "attachment", file.filename || fieldId),
  };
  const r = parseRange(range, size);
  if (!r) return { status: 200, headers: { ...headers, "content-length": String(size) }, body: store.blobs.read(doc.blob) };
  headers["content-range"] = `bytes ${r.start}-${r.end}/${size}`;
  headers["content-length"] = String(r.end - r.start + 1);
  return { status: 206, headers, body: store.blobs.read(doc.blob, r) };
}
