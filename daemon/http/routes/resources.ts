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

/** The resource members of an activity row: its id, or the slug it was named by. */
function resourceMembers(params: { rid?: string; rslug?: string }) {
  return { resource_id: params.rid ?? null, resource_slug: params.rslug ?? null };
}

/** Resource routes: each handler serves both forms of its route (by id and by slug). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createResource, async (i) =>
    s.activity.track(
      i.params.kbid,
      "new",
      i,
      () => s.resources.create(i.params.kbid, i.body),
      (r) => ({ resource_id: r.uuid }),
    ),
  );
  mount(app, api.listResources, async ({ params, query }) => s.resources.list(params.kbid, query.page, query.size));
  // HEAD is answered by the GET handler (Hono drops the body), so one handler serves both.
  mount(app, api.getResource, async (i) =>
    s.activity.track(
      i.params.kbid,
      "visited",
      i,
      () => s.resources.get(i.params.kbid, refOf(i.params), i.query),
      (r) => ({
        resource_id: r.id,
      }),
    ),
  );
  mount(app, api.updateResource, async (i) =>
    s.activity.track(
      i.params.kbid,
      "modified",
      i,
      () => s.resources.update(i.params.kbid, refOf(i.params), i.body),
      () => resourceMembers(i.params),
    ),
  );
  mount(app, api.deleteResource, async (i) => {
    await s.activity.track(
      i.params.kbid,
      "deleted",
      i,
      () => s.resources.delete(i.params.kbid, refOf(i.params)),
      () => resourceMembers(i.params),
    );
    return undefined;
  });
  mount(app, api.reprocessResource, async ({ params }) => s.resources.reprocess(params.kbid, refOf(params)));
  mount(app, api.appendMessages, async ({ params, body }) =>
    s.resources.appendMessages(params.kbid, refOf(params), params.field_id, body),
  );
  mount(app, api.putField, async ({ params, body }) =>
    s.resources.putField(params.kbid, refOf(params), params.field_type, params.field_id, body),
  );
  mount(app, api.reindexResource, async ({ params, query }) =>
    s.resources.reindex(params.kbid, refOf(params), query.reindex_vectors === true),
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
