import { Readable } from "node:stream";
import type { Hono } from "hono";
import type { CreateResource } from "../../../src/api/resources.js";
import * as api from "../../../src/api/uploads.js";
import type { Services } from "../../services.js";
import { openDownload } from "../../uploads/download.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import {
  asGet,
  bodyOf,
  created,
  directMeta,
  type FormParams,
  offsetAnswer,
  optionsAnswer,
  patched,
  targetOf,
  tusCreation,
  tusPatchHeaders,
} from "../tus.js";

/** Direct and TUS uploads (each in three forms: a new resource, a file field by id, by slug) and downloads. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.upload, async ({ params, query, req }) => {
    const p = params as FormParams;
    const target = targetOf(p, (query as { rslug?: string }).rslug);
    const meta = directMeta(req);
    await s.uploads.check(p.kbid, target, meta);
    return s.uploads.store(p.kbid, target, meta, bodyOf(req));
  });
  mount(app, api.tusCreate, async ({ params, body, req }) => {
    const p = params as FormParams;
    const { length, meta } = tusCreation(req);
    const resource = p.field === undefined ? (body as CreateResource | undefined) : undefined;
    return created(p, await s.tus.create(p.kbid, targetOf(p), length, meta, resource));
  });
  mount(app, api.tusPatch, async ({ params, req }) => {
    const p = params as FormParams & { upload_id: string };
    const h = tusPatchHeaders(req);
    return patched(await s.tus.patch(p.kbid, p.upload_id, h["upload-offset"], h["upload-length"], bodyOf(req)(), h.type));
  });
  mount(app, asGet(api.tusHead), async ({ params }) => {
    const p = params as FormParams & { upload_id: string };
    return offsetAnswer(await s.tus.state(p.kbid, p.upload_id));
  });
  // OPTIONS is TUS's discovery, not a wire route: answered as is, after authentication like any request.
  for (const forms of [api.tusCreate, api.tusPatch]) for (const def of Object.values(forms)) app.options(def.path, optionsAnswer);

  mount(app, api.downloadField, async ({ params, query, req }) => {
    const ref = "rid" in params ? { rid: params.rid } : { slug: params.rslug };
    const d = await openDownload(s.resources, params.kbid, ref, params.field_id, req.headers.get("range"), query.inline);
    return new Response(Readable.toWeb(d.body) as ReadableStream, { status: d.status, headers: d.headers });
  });
}
