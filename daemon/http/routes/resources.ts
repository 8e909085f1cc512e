import type { Hono } from "hono";
import * as api from "../../../src/api/resources.js";
import type { RouteDef } from "../../../src/api/route.js";
import type { ResourceRef } from "../../resources/service.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { type Handler, type HandlerInput, mount } from "../mount.js";

/** The resource a route's path names, by id or by slug. */
export function refOf(params: { rid?: string; rslug?: string }): ResourceRef {
  return params.rid !== undefined ? { rid: params.rid } : { slug: params.rslug ?? "" };
}

/** Mount one handler on both the by-id and the by-slug form of a resource route. */
export function mountBoth<A extends RouteDef, B extends RouteDef>(
  app: Hono<HttpEnv>,
  pair: { byId: A; bySlug: B },
  handler: (input: HandlerInput<A> | HandlerInput<B>) => ReturnType<Handler<A>>,
): void {
  mount(app, pair.byId, handler);
  mount(app, pair.bySlug, handler as unknown as Handler<B>);
}

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.createResource, async ({ params, body }) => s.resources.create(params.kbid, body));
  mount(app, api.listResources, async ({ params, query }) => s.resources.list(params.kbid, query.page, query.size));
  // HEAD is answered by the GET handler (Hono drops the body), so one handler serves both.
  mountBoth(app, api.getResource, async ({ params, query }) => s.resources.get(params.kbid, refOf(params), query));
  mountBoth(app, api.updateResource, async ({ params, body }) => s.resources.update(params.kbid, refOf(params), body));
  mountBoth(app, api.deleteResource, async ({ params }) => {
    await s.resources.delete(params.kbid, refOf(params));
    return undefined;
  });
  mountBoth(app, api.reprocessResource, async ({ params }) => s.resources.reprocess(params.kbid, refOf(params)));
  mountBoth(app, api.appendMessages, async ({ params, body }) =>
    s.resources.appendMessages(params.kbid, refOf(params), params.field_id, body),
  );
  mountBoth(app, api.putField, async ({ params, body }) =>
    s.resources.putField(params.kbid, refOf(params), params.field_type, params.field_id, body),
  );
  mountBoth(app, api.getField, async ({ params, query }) =>
    s.resources.getField(params.kbid, refOf(params), params.field_type, params.field_id, query.show ?? [], query.extracted),
  );
  mountBoth(app, api.deleteField, async ({ params }) => {
    await s.resources.deleteField(params.kbid, refOf(params), params.field_type, params.field_id);
    return undefined;
  });
  mountBoth(app, api.reprocessField, async ({ params }) =>
    s.resources.reprocess(params.kbid, refOf(params), { type: params.field_type, id: params.field_id }),
  );
}
