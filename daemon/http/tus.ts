/** The upload routes' HTTP side: TUS and direct-upload headers in, the TUS protocol's answers out. */
import { Readable } from "node:stream";
import type { RouteDef } from "../../src/api/route.js";
import * as api from "../../src/api/uploads.js";
import { KboxError } from "../errors.js";
import { decodeFilename, mediaType, metaFromTus, parseTusMetadata, type UploadMeta } from "../uploads/meta.js";
import type { UploadTarget } from "../uploads/service.js";
import type { TusState } from "../uploads/tus.js";
import { parse, readHeaders } from "./parse.js";

/** The path parameters of an upload route's three forms (a new resource, a field by id, by slug). */
export type FormParams = { kbid: string; rid?: string; rslug?: string; field?: string };

/** What an upload goes into. */
export function targetOf(p: FormParams, slug?: string): UploadTarget {
  if (p.field === undefined) return { kind: "new", slug };
  return { kind: "field", ref: p.rid !== undefined ? { rid: p.rid } : { slug: p.rslug ?? "" }, field: p.field };
}

/** The request body as a Node stream (a factory: a body is read once). */
export const bodyOf = (req: Request) => () =>
  req.body ? Readable.fromWeb(req.body as import("node:stream/web").ReadableStream) : Readable.from([]);

/** A direct upload's metadata, from its `x-*` headers. */
export function directMeta(req: Request): UploadMeta {
  const h = (n: string) => req.headers.get(n) ?? undefined;
  return {
    filename: decodeFilename(h(api.UPLOAD_HEADERS.filename)),
    contentType: mediaType(h("content-type")),
    md5: h(api.UPLOAD_HEADERS.md5)?.trim().toLowerCase() || undefined,
    language: h(api.UPLOAD_HEADERS.language),
    password: h(api.UPLOAD_HEADERS.password),
    extractStrategy: h(api.UPLOAD_HEADERS.extractStrategy),
    splitStrategy: h(api.UPLOAD_HEADERS.splitStrategy),
  };
}

const TUS_HEADERS = {
  "tus-resumable": api.TUS_VERSION,
  "access-control-expose-headers":
    "Location, Upload-Offset, Upload-Length, Tus-Resumable, Tus-Upload-Finished, NDB-Resource, NDB-Field, NDB-Seq",
};

/** `Location` of an upload, relative to /api/v1 as the hosted clients expect. */
function locationOf(p: FormParams, id: string): string {
  const base =
    p.field === undefined
      ? `/kb/${p.kbid}`
      : p.rid !== undefined
        ? `/kb/${p.kbid}/resource/${p.rid}/file/${p.field}`
        : `/kb/${p.kbid}/slug/${p.rslug}/file/${p.field}`;
  return `${base}/tusupload/${id}`;
}

/** The answer to a TUS PATCH: the new offset and, once finished, where the resource is. */
export function patched(s: TusState): Response {
  const h: Record<string, string> = { ...TUS_HEADERS, "upload-offset": String(s.offset) };
  if (s.length !== null) h["upload-length"] = String(s.length);
  if (s.finished) {
    const { uuid, field_id, seqid } = s.finished;
    Object.assign(h, {
      "tus-upload-finished": "1",
      "ndb-resource": `/kb/${s.kbid}/resources/${uuid}`,
      "ndb-field": `/kb/${s.kbid}/resources/${uuid}/field/${field_id}`,
      "ndb-seq": String(seqid ?? ""),
    });
  }
  // 200 rather than TUS's 204: the hosted JS client treats anything else as a failed chunk.
  return new Response(null, { status: 200, headers: h });
}

/** The forms of a HEAD route mounted as GET: Hono answers HEAD with the GET handler (body dropped). */
export function asGet<F extends Record<string, RouteDef>>(forms: F): F {
  return Object.fromEntries(Object.entries(forms).map(([k, def]) => [k, { ...def, method: "GET" }])) as F;
}

/** A TUS creation's length and metadata, from its headers: 412 without Tus-Resumable, 400 without a length. */
export function tusCreation(req: Request): { length: number | null; meta: UploadMeta } {
  if (!req.headers.get("tus-resumable"))
    throw new KboxError(412, "Tus-Resumable header is required", { "tus-version": api.TUS_VERSION });
  const h = parse(api.TusCreateHeaders, readHeaders(req), "header");
  if (h["upload-length"] === undefined && !h["upload-defer-length"])
    throw new KboxError(400, "Upload-Length or Upload-Defer-Length: 1 is required");
  const meta = metaFromTus(parseTusMetadata(h["upload-metadata"]), {
    extract: req.headers.get(api.UPLOAD_HEADERS.extractStrategy) ?? undefined,
    split: req.headers.get(api.UPLOAD_HEADERS.splitStrategy) ?? undefined,
  });
  return { length: h["upload-length"] ?? null, meta };
}

/**
 * A TUS PATCH's offset, (deferred) length and body type. A Tus-Resumable other than 1.0.0 is 412; the
 * hosted clients send none, and the file's own type instead of `application/offset+octet-stream`
 * (the service checks the type against the upload's).
 */
export function tusPatchHeaders(req: Request) {
  const version = req.headers.get("tus-resumable");
  if (version !== null && version.trim() !== api.TUS_VERSION)
    throw new KboxError(412, `Tus-Resumable ${version} is not supported`, { "tus-version": api.TUS_VERSION });
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  return { ...parse(api.TusPatchHeaders, readHeaders(req), "header"), type };
}

/** The answer to a TUS creation: where the upload is. */
export function created(p: FormParams, id: string): Response {
  return new Response(null, { status: 201, headers: { ...TUS_HEADERS, location: locationOf(p, id), "upload-offset": "0" } });
}

/** The answer to a TUS HEAD: the offset and the length (or that it is deferred). */
export function offsetAnswer(st: { offset: number; length: number | null }): Response {
  const h: Record<string, string> = { ...TUS_HEADERS, "upload-offset": String(st.offset), "cache-control": "no-store" };
  if (st.length === null) h["upload-defer-length"] = "1";
  else h["upload-length"] = String(st.length);
  return new Response(null, { status: 200, headers: h });
}

/** The answer to a TUS OPTIONS: the version and extensions served. */
export function optionsAnswer(): Response {
  return new Response(null, {
    status: 204,
    headers: { ...TUS_HEADERS, "tus-version": api.TUS_VERSION, "tus-extension": "creation,creation-defer-length" },
  });
}
