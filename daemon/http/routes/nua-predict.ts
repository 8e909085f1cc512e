import type { Hono } from "hono";
import * as api from "../../../src/api/nua-predict.js";
import { clientOf } from "../../nua/caller.js";
import { metered } from "../../nua/meter.js";
import { predictTokens } from "../../nua/query.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Predict operations of the understanding API served from kbox's own analysis (metered for NUA keys). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const client = (p: Parameters<typeof clientOf>[0]) => clientOf(p, s.nua, s.store, s.accounts.default.id);
  mount(app, api.predictTokens, async ({ query, principal }) =>
    metered(s.nuaUsage, principal, client, "predict", query, () => predictTokens(query.text)),
  );
}
