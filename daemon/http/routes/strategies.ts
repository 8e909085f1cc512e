import type { Hono } from "hono";
import * as api from "../../../src/api/strategies.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Extract and split strategies of a knowledge box. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const st = s.strategies;
  mount(app, api.listExtractStrategies, async ({ params }) => st.list(params.kbid, "extract"));
  mount(app, api.addExtractStrategy, async ({ params, body }) => st.add(params.kbid, "extract", body));
  mount(app, api.getExtractStrategy, async ({ params }) => st.get(params.kbid, "extract", params.strategy_id));
  mount(app, api.deleteExtractStrategy, async ({ params }) => st.delete(params.kbid, "extract", params.strategy_id));
  mount(app, api.listSplitStrategies, async ({ params }) => st.list(params.kbid, "split"));
  mount(app, api.addSplitStrategy, async ({ params, body }) => st.add(params.kbid, "split", body));
  mount(app, api.getSplitStrategy, async ({ params }) => st.get(params.kbid, "split", params.strategy_id));
  mount(app, api.deleteSplitStrategy, async ({ params }) => st.delete(params.kbid, "split", params.strategy_id));
}
