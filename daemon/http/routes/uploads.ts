import { Readable } from "node:stream";
import type { Hono } from "hono";
import type { CreateResource } from "../../../src/api/resources.js";
import type { RouteDef } from "../../../src/api/route.js";
import * as api from "../../../src/api/uploads.js";
import { KboxError } from "../../errors.js";
import type { Services } from "../../services.js";
import { openDownload } from "../../uploads/download.js";
import { decodeFilename, mediaType, metaFromTus, parseTusMetadata, type UploadMeta } from "../../uploads/meta.js";
import type { UploadTarget } from "../../uploads/service.js";
import type { TusState } from "../../uploads/tus.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import { parse, readHeaders } from "../parse.js";

type FormParams = { kbid: string; rid?: string; rslug?: string; field?: string };

function targetOf(p: FormParams, slug?: string): UploadTarget {
  if (p.field === undefined) return { kind: "new", slug };
  return { kind: "field", ref: p.rid !== undefined ? { rid: p.rid } : { slug: p.rslug ?? "" }, field: p.field };
}

const bodyOf = (req: Request) => () =>
  req.body ? Readable.fromWeb(req.body as import("node:stream/web").ReadableStream) : Readable.from([]);

function directMeta(req: Request): UploadMeta {
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

function patchAnswer(s: TusState): Response {
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
function asGet<F extends Record<string, RouteDef>>(forms: F): F {
  return Object.fromEntries(Object.entries(forms).map(([k, def]) => [k, { ...def, method: "GET" }])) as F;
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.upload, async ({ params, query, req }) => {
    const target = targetOf(params as FormParams, (query as { rslug?: string }).rslug);
    const meta = directMeta(req);
    const { kbid } = params as FormParams;
    await s.uploads.check(kbid, target, meta);
    return s.uploads.store(kbid, target, meta, bodyOf(req));
  });

  mount(app, api.tusCreate, async ({ params, body, req }) => {
    if (!req.headers.get("tus-resumable"))
      throw new KboxError(412, "Tus-Resumable header is required", { "tus-version": api.TUS_VERSION });
    const h = parse(api.TusCreateHeaders, readHeaders(req), "header");
    if (h["upload-length"] === undefined && !h["upload-defer-length"])
      throw new KboxError(400, "Upload-Length or Upload-Defer-Length: 1 is required");
    const meta = metaFromTus(parseTusMetadata(h["upload-metadata"]), {
      extract: req.headers.get(api.UPLOAD_HEADERS.extractStrategy) ?? undefined,
      split: req.headers.get(api.UPLOAD_HEADERS.splitStrategy) ?? undefined,
    });
    const p = params as FormParams;
    const id = await s.tus.create(
      p.kbid,
      targetOf(p),
      h["upload-length"] ?? null,
      meta,
      p.field === undefined ? (body as CreateResource | undefined) : undefined,
    );
    return new Response(null, { status: 201, headers: { ...TUS_HEADERS, location: locationOf(p, id), "upload-offset": "0" } });
  });

  mount(app, api.tusPatch, async ({ params, req }) => {
    const h = parse(api.TusPatchHeaders, readHeaders(req), "header");
    const p = params as FormParams & { upload_id: string };
    const state = await s.tus.patch(p.kbid, p.upload_id, h["upload-offset"], h["upload-length"], bodyOf(req)());
    return patchAnswer(state);
  });

  mount(app, asGet(api.tusHead), async ({ params }) => {
    const p = params as FormParams & { upload_id: string };
    const st = await s.tus.state(p.kbid, p.upload_id);
    const h: Record<string, string> = { ...TUS_HEADERS, "upload-offset": String(st.offset), "cache-control": "no-store" };
    if (st.length === null) h["upload-defer-length"] = "1";
    else h["upload-length"] = String(st.length);
    return new Response(null, { status: 200, headers: h });
  });

  const options = () =>
    new Response(null, {
      status: 204,
      headers: { ...TUS_HEADERS, "tus-version": api.TUS_VERSION, "tus-extension": "creation,creation-defer-length" },
    });
  for (const def of [
    api.tusCreate.kb,
    api.tusCreate.byId,
    api.tusCreate.bySlug,
    api.tusPatch.kb,
    api.tusPatch.byId,
    api.tusPatch.bySlug,
  ]) {
    app.options(def.path, options);
  }

  mount(app, api.downloadField, async ({ params, query, req }) => {
    const ref = "rid" in params ? { rid: params.rid } : { slug: params.rslug };
    const d = await openDownload(s.resources, params.kbid, ref, params.field_id, req.headers.get("range"), query.inline);
    return new Response(Readable.toWeb(d.body) as ReadableStream, { status: d.status, headers: d.headers });
  });
}
