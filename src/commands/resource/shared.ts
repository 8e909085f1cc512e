import type { z } from "zod";
import type { RouteDef, RouteRef } from "../../client/client.js";

const RID = /^[0-9a-f]{32}$/;

/**
 * The by-id or by-slug form of a resource route for a reference, with its parameters. Both forms
 * share request and response schemas, so callers use the by-id type.
 */
export function resourceRoute<A extends RouteDef, B extends RouteDef>(
  pair: { byId: A | RouteRef<A>; bySlug: B | RouteRef<B> },
  kbid: string,
  ref: string,
  extra: Record<string, string> = {},
): { def: A | RouteRef<A>; params: z.input<A["params"]> } {
  if (RID.test(ref)) return { def: pair.byId, params: { kbid, rid: ref, ...extra } as z.input<A["params"]> };
  return { def: pair.bySlug as unknown as RouteRef<A>, params: { kbid, rslug: ref, ...extra } as z.input<A["params"]> };
}
