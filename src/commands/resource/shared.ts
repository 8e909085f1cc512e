import type { z } from "zod";
import type { RouteDef } from "../../api/route.js";
import type { RouteRef } from "../../client/client.js";
import type { Classification } from "../../api/common.js";
import { usageError } from "../../cli/errors.js";

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

/** `labelset/label` strings into classifications. */
export function parseLabels(labels: string[] | undefined): Classification[] | undefined {
  if (!labels?.length) return undefined;
  return labels.map((l) => {
    const i = l.indexOf("/");
    if (i <= 0 || i === l.length - 1) throw usageError(`label ${JSON.stringify(l)} is not labelset/label`);
    return { labelset: l.slice(0, i), label: l.slice(i + 1) };
  });
}

/** Commander collector for repeatable options. */
export const collect = (v: string, prev: string[] = []) => [...prev, v];
