import type { Hono } from "hono";
import * as api from "../../../src/api/guardrails.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Account guardrail policies and the Predict Guardrail endpoint. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const g = s.guardrails;
  mount(app, api.createGuardrailPolicy, async ({ params, body }) => g.create(params.account_id, body));
  mount(app, api.listGuardrailPolicies, async ({ params }) => g.list(params.account_id));
  mount(app, api.getGuardrailPolicy, async ({ params }) => g.get(params.account_id, params.policy_id));
  mount(app, api.updateGuardrailPolicy, async ({ params, body }) => g.update(params.account_id, params.policy_id, body));
  mount(app, api.deleteGuardrailPolicy, async ({ params }) => {
    await g.delete(params.account_id, params.policy_id);
    return undefined;
  });
  mount(app, api.predictGuardrail, async ({ body, principal, signal }) =>
    g.predict(g.accountOf(principal.account), body, signal),
  );
}
