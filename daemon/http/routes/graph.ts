import type { Hono } from "hono";
import * as g from "../../../src/api/graph.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Graph search over the relations of a knowledge box (paths, nodes, relation kinds). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, g.graphSearch, async ({ params, body }) => s.graph.paths(params.kbid, body));
  mount(app, g.graphNodes, async ({ params, body }) => s.graph.nodes(params.kbid, body));
  mount(app, g.graphRelations, async ({ params, body }) => s.graph.relations(params.kbid, body));
}
