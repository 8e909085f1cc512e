import type { Hono } from "hono";
import * as api from "../../../src/api/resources.js";
import type { ResourceRef } from "../../resources/service.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** The resource a route's path names, by id or by slug. */
function refOf(params: { rid?: string; rslug?: string }): ResourceRef {
  return params.rid !== undefined ? { rid: params.rid } : { slug: params.rslug ?? "" };
}

/** Resource routes: each handler serves both forms of its route (by id and by slug). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createResource, async ({ params, body }) => s.resources.create(params.kbid, body));
  mount(app, api.listResources, async ({ params, query }) => s.resources.list(params.kbid, query.page, query.size));
  // HEAD is answered by the GET handler (Hono drops the body), so one handler serves both.
  mount(app, api.getResource, async ({ params, query }) => s.resources.get(params.kbid, refOf(params), query));
  mount(app, api.updateResource, async ({ params, body }) => s.resources.update(params.kbid, refOf(params), body));
  mount(app, api.deleteResource, async ({ params }) => {
    await s.resources.delete(params.kbid, refOf(params));
    return undefined;
  });
  mount(app, api.reprocessResource, async ({ params }) => s.resources.reprocess(params.kbid, refOf(params)));
  mount(app, api.appendMessages, async ({ params, body }) =>
    s.resources.appendMessages(params.kbid, refOf(params), params.field_id, body),
  );
  mount(app, api.putField, async ({ params, body }) =>
    s.resources.putField(params.kbid, refOf(params), params.field_type, params.field_id, body),
  );
  mount(app, api.getField, async ({ params, query }) =>
    s.resources.getField(
      params.kbid,
      refOf(params),
      params.field_type,
      params.field_id,
      query.show ?? [],
      query.extracted,
      query.page,
    ),
  );
  mount(app, api.deleteField, async ({ params }) => {
    await s.resources.deleteField(params.kbid, refOf(params), params.field_type, params.field_id);
    return undefined;
  });
  mount(app, api.reprocessField, async ({ params }) =>
    s.resources.reprocess(params.kbid, refOf(params), { type: params.field_type, id: params.field_id }),
  );
}
