import type { Hono } from "hono";
import * as api from "../../../src/api/nua-processing.js";
import type { Principal } from "../../auth/principal.js";
import { clientOf } from "../../nua/caller.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";
import { bodyOf, directMeta } from "../tus.js";

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
  mount(app, api.downloadBinary, async ({ principal, query }) => p.download(await client(principal), query.token));
}
