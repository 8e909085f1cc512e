import { z } from "zod";
import { route } from "./route.js";

const AccountParams = z.object({ account_id: z.string() });
const PolicyParams = z.object({ account_id: z.string(), policy_id: z.string().uuid() });

/** A guardrail policy as the spec lists it. */
export const GuardrailPolicy = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  instruction: z.string(),
  query: z.string(),
  target: z.literal("QUERY"),
  enabled: z.boolean(),
  blocking: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GuardrailPolicy = z.infer<typeof GuardrailPolicy>;

const members = {
  name: z.string().min(1).max(200),
  description: z.string().max(20_000).nullable(),
  instruction: z.string().min(1).max(20_000),
  query: z.string().min(1).max(1000),
  /** Only query text is evaluated. */
  target: z.literal("QUERY"),
  /** Whether ask and predict queries evaluate the policy. */
  enabled: z.boolean(),
  /** false: violations (and evaluation failures) are only reported. */
  blocking: z.boolean(),
};

export const CreateGuardrailPolicy = z.strictObject({
  name: members.name,
  description: members.description.optional(),
  instruction: members.instruction,
  query: members.query,
  target: members.target.default("QUERY"),
  enabled: members.enabled.default(false),
  blocking: members.blocking.default(true),
});
export type CreateGuardrailPolicy = z.infer<typeof CreateGuardrailPolicy>;

/** Every member optional and nullable (null: unchanged, but for description, which null clears). */
export const UpdateGuardrailPolicy = z.strictObject({
  name: members.name.nullable().optional(),
  description: members.description.optional(),
  instruction: members.instruction.nullable().optional(),
  query: members.query.nullable().optional(),
  target: members.target.nullable().optional(),
  enabled: members.enabled.nullable().optional(),
  blocking: members.blocking.nullable().optional(),
});
export type UpdateGuardrailPolicy = z.infer<typeof UpdateGuardrailPolicy>;

const POLICIES = "/api/v1/account/:account_id/guardrail_policies";

export const createGuardrailPolicy = route({
  method: "POST",
  path: POLICIES,
  params: AccountParams,
  body: CreateGuardrailPolicy,
  response: GuardrailPolicy,
  status: 201,
  scope: "account",
  role: "MANAGER",
  summary: "Create an account guardrail policy (evaluated on ask and predict queries once enabled)",
});

export const listGuardrailPolicies = route({
  method: "GET",
  path: POLICIES,
  params: AccountParams,
  response: z.array(GuardrailPolicy),
  scope: "account",
  role: "MANAGER",
  summary: "The account's guardrail policies, oldest first",
});

export const getGuardrailPolicy = route({
  method: "GET",
  path: `${POLICIES}/:policy_id`,
  params: PolicyParams,
  response: GuardrailPolicy,
  scope: "account",
  role: "MANAGER",
  summary: "One guardrail policy",
});

export const updateGuardrailPolicy = route({
  method: "PATCH",
  path: `${POLICIES}/:policy_id`,
  params: PolicyParams,
  body: UpdateGuardrailPolicy,
  response: GuardrailPolicy,
  scope: "account",
  role: "MANAGER",
  summary: "Update a guardrail policy (members given and not null)",
});

export const deleteGuardrailPolicy = route({
  method: "DELETE",
  path: `${POLICIES}/:policy_id`,
  params: PolicyParams,
  status: 204,
  scope: "account",
  role: "MANAGER",
  summary: "Delete a guardrail policy",
});

/** The Predict Guardrail request: content and a stored policy (by id) or an inline one; none: every enabled policy. */
export const GuardrailRequest = z.strictObject({
  content: z.string().min(1).max(20_000),
  policy_id: z.string().uuid().nullable().optional(),
  policy: CreateGuardrailPolicy.nullable().optional(),
});

export const GuardrailResult = z.object({
  flagged: z.boolean(),
  score: z.number(),
  threshold: z.number(),
  policy_id: z.string().nullable(),
  /** kbox: how the content was judged (`model:<id>` or `offline:trigger-terms`) and why. */
  method: z.string(),
  reason: z.string(),
});

export const predictGuardrail = route({
  method: "POST",
  path: "/api/v1/predict/guardrail",
  body: GuardrailRequest,
  response: GuardrailResult,
  scope: "authenticated",
  role: "READER",
  summary: "Predict Guardrail: evaluate content against a policy (the daemon's generative model, or offline trigger terms)",
});
