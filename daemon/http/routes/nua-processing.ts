import type { Hono } from "hono";
import * as api from "../../../src/api/nua-processing.js";
import type { Principal } from "../../auth/principal.js";
import { clientOf } from "../../nua/caller.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import { asGet, bodyOf, directMeta, offsetAnswer, optionsAnswer, tusCreation, tusPatchHeaders } from "../tus.js";

/** The understanding API's processing (zone-api.md §2b): each caller acts as its understanding client. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const p = s.nuaProcessing;
  const client = (principal: Principal) => clientOf(principal, s.nua, s.store, s.accounts.default.id);
  mount(app, api.uploadToProcess, async ({ principal, req }) => {
    const meta = directMeta(req);
    return p.upload(await client(principal), { filename: meta.filename, contentType: meta.contentType }, bodyOf(req)());
  });
  mount(app, { v1: api.pushV1, v2: api.pushV2 }, async ({ principal, body }) => p.push(await client(principal), body));
  mount(app, { v1: api.listRequests, v2: api.statusListV2 }, async ({ principal, query }) =>
    p.list(await client(principal), query),
  );
  mount(app, { v1: api.getRequest, v2: api.statusV2 }, async ({ principal, params }) => {
    const c = await client(principal);
    return p.view(p.require(c, params.processing_id), true);
  });
  mount(app, api.streamResults, async ({ principal, params, query, signal }) =>
    p.stream(await client(principal), params.processing_id, query.data_types, signal),
  );
  mount(app, api.pull, async ({ principal }) => p.pull(await client(principal)));
  mount(app, api.tusCreate, async ({ principal, req }) => {
    const { length, meta } = tusCreation(req);
    const id = await s.nuaTus.create(await client(principal), length, { filename: meta.filename, contentType: meta.contentType });
    const headers = { "tus-resumable": "1.0.0", location: `/api/v1/processing/tusupload/${id}`, "upload-offset": "0" };
    return new Response(null, { status: 201, headers });
  });
  mount(app, api.tusPatch, async ({ principal, params, req }) => {
    const h = tusPatchHeaders(req);
    const r = await s.nuaTus.patch(await client(principal), params.upload_id, h["upload-offset"], bodyOf(req)());
    const headers = { "tus-resumable": "1.0.0", "upload-offset": String(r.offset), "upload-length": String(r.length) };
    if (!r.token) return new Response(null, { status: 200, headers });
    return Response.json(r.token, { status: 200, headers: { ...headers, "tus-upload-finished": "1" } });
  });
  mount(app, asGet({ head: api.tusHead }), async ({ principal, params }) =>
    offsetAnswer(await s.nuaTus.state(await client(principal), params.upload_id)),
  );
  app.options(api.tusCreate.path, optionsAnswer);
  app.options(api.tusPatch.path, optionsAnswer);
  mount(app, api.downloadBinary, async ({ principal, query }) => p.download(await client(principal), query.token));
}
