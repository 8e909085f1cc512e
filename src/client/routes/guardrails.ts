// Generated from src/api/guardrails.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/guardrails.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/guardrails.js";
import type { Routed } from "../client.js";

export type * from "../../api/guardrails.js";

export const createGuardrailPolicy: Routed<typeof api.createGuardrailPolicy> = {
  method: "POST",
  path: "/api/v1/account/:account_id/guardrail_policies",
  stream: false,
};
export const deleteGuardrailPolicy: Routed<typeof api.deleteGuardrailPolicy> = {
  method: "DELETE",
  path: "/api/v1/account/:account_id/guardrail_policies/:policy_id",
  stream: false,
};
export const getGuardrailPolicy: Routed<typeof api.getGuardrailPolicy> = {
  method: "GET",
  path: "/api/v1/account/:account_id/guardrail_policies/:policy_id",
  stream: false,
};
export const listGuardrailPolicies: Routed<typeof api.listGuardrailPolicies> = {
  method: "GET",
  path: "/api/v1/account/:account_id/guardrail_policies",
  stream: false,
};
export const predictGuardrail: Routed<typeof api.predictGuardrail> = {
  method: "POST",
  path: "/api/v1/predict/guardrail",
  stream: false,
};
export const updateGuardrailPolicy: Routed<typeof api.updateGuardrailPolicy> = {
  method: "PATCH",
  path: "/api/v1/account/:account_id/guardrail_policies/:policy_id",
  stream: false,
};
