/**
 * Valid-looking inputs for any route, so the route matrix reaches the check it means to test: a value
 * for each path parameter name, and a body built from the route's own schema.
 */
import { z } from "zod";
import { buildPath, type KbRef, pathParams, type RouteDef } from "../../../src/api/route.js";

export const MISSING_KB = "00000000-0000-4000-8000-000000000000";
const SOME_ID = "0f0f0f0f-0000-4000-8000-000000000000";

/** A value for every path parameter name the routes use; a route with a new name needs one here. */
export const PARAM_SAMPLES: Record<string, string> = {
  account_id: "local",
  account: "local",
  kbid: MISSING_KB,
  kb_id: MISSING_KB,
  kb: MISSING_KB,
  kb_uuid: MISSING_KB,
  slug: "no-such-slug",
  rid: "f".repeat(32),
  rslug: "no-such-resource",
  field_type: "text",
  field_id: "f1",
  field: "f1",
  upload_id: "e".repeat(32),
  backup_id: SOME_ID,
  export_id: SOME_ID,
  import_id: SOME_ID,
  config_id: SOME_ID,
  connection_id: SOME_ID,
  job_id: SOME_ID,
  sa_id: SOME_ID,
  key_id: SOME_ID,
  strategy_id: SOME_ID,
  labelset: "topics",
  name: "cfg",
  agentic_id: "cfg",
  source_id: "src",
  model_id: "no-such-model",
  schema_id: "product",
  group: "PEOPLE",
  vectorset_id: "bge-small-en-v1.5",
  token_id: SOME_ID,
  user_id: SOME_ID,
  email: "someone@example.com",
  client_id: SOME_ID,
  request_id: SOME_ID,
  event_type: "ask",
  event_id: "1",
  endpoint: "tokens",
  filename: "model.onnx",
  agent_id: MISSING_KB,
  session: "s1",
  workflow_id: "default",
  prompt_id: "p1",
  driver: "d1",
  module_id: "m1",
  policy_id: SOME_ID,
  // Upstream's /task/start shares its shape with /task/:task_id: a DELETE there names a task "start".
  task_id: "start",
  asset_id: "f".repeat(32),
  token: "no-such-token",
  dataset_id: SOME_ID,
  partition_id: "p1",
  type: "classifier",
  processing_id: SOME_ID,
};

/**
 * What some routes need before they look at their knowledge box: a protocol's own headers, a raw body,
 * or a body their service (not their schema) checks. Matched against "METHOD /path".
 */
export const REQUEST_SAMPLES: [RegExp, { headers?: Record<string, string>; body?: unknown; query?: string }][] = [
  [/^POST .*\/tusupload$/, { headers: { "tus-resumable": "1.0.0", "upload-length": "1" } }],
  [
    /^PATCH .*\/tusupload\/:upload_id$/,
    {
      headers: { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
      body: "x",
    },
  ],
  [/^PUT .*\/:field_type\/:field_id$/, { body: { body: "x" } }],
  [/^POST .*\/import$/, { body: "not an archive" }],
  [/^POST .*\/graph(\/nodes)?$/, { body: { query: { prop: "node", value: "x" } } }],
  [/^POST .*\/graph\/relations$/, { body: { query: { prop: "relation", label: "x" } } }],
  [/^POST .*\/task\/start$/, { body: { name: "labeler", apply: "EXISTING" } }],
  [/^GET \/api\/v1\/predict\/(tokens|sentence)\/:kbid$/, { query: "text=x" }],
  [/^GET \/api\/v1\/kb\/:kbid\/ask$/, { query: "agentic_config_id=x" }],
];

/** The request sample a route needs, if any. */
export function requestSample(def: RouteDef): { headers?: Record<string, string>; body?: unknown; query?: string } | undefined {
  return REQUEST_SAMPLES.find(([re]) => re.test(`${def.method} ${def.path}`))?.[1];
}

/** Values for string members the generator cannot invent (patterns, refinements), by member name. */
const MEMBER_HINTS: Record<string, unknown> = {
  slug: "a-slug",
  expires: "2099-01-01T00:00:00Z",
  expiration_date: "2099-01-01T00:00:00Z",
  email: "someone@example.com",
  agent_session: "s1",
  name: "openai:x",
  year_month: "2026-01",
  month: "2026-01",
  from: "2026-01-01T00:00:00Z",
  passphrase: "a passphrase of sixteen",
};

/** A JSON Schema document, read loosely. */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema nodes are walked without a schema of their own
type Json = Record<string, any>;

/** The smallest value a JSON schema accepts, as far as a few rules can tell. */
function minimal(s: Json, root: Json, key?: string, depth = 0): unknown {
  if (depth > 10) return undefined;
  if (key && key in MEMBER_HINTS) return MEMBER_HINTS[key];
  if (s.$ref) return minimal(root.$defs?.[String(s.$ref).split("/").pop() as string] ?? {}, root, key, depth + 1);
  if ("const" in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) return minimal(alts.find((a) => a.type !== "null") ?? alts[0], root, key, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  if (type === "object") {
    const out: Json = {};
    for (const k of (s.required as string[] | undefined) ?? []) out[k] = minimal(s.properties?.[k] ?? {}, root, k, depth + 1);
    return out;
  }
  if (type === "array") return Array.from({ length: s.minItems ?? 0 }, () => minimal(s.items ?? {}, root, undefined, depth + 1));
  if (type === "string") return s.format === "uuid" ? SOME_ID : s.format === "date-time" ? MEMBER_HINTS.expires : "x";
  if (type === "integer" || type === "number") return s.minimum ?? 1;
  if (type === "boolean") return false;
  return type === "null" ? null : {};
}

/** A body the route's schema accepts (none, `{}`, or one built from the schema), or undefined when none could be made. */
export function sampleBody(def: RouteDef): { body: unknown } | undefined {
  if (def.bodyKind !== "json") return { body: undefined };
  for (const body of [undefined, {}]) if (def.body.safeParse(body).success) return { body };
  const schema = z.toJSONSchema(def.body, { io: "input", unrepresentable: "any" }) as Json;
  const body = minimal(schema, schema);
  return def.body.safeParse(body).success ? { body } : undefined;
}

/** The knowledge box a request names, in each form a KbRef can take. */
export interface KbNames {
  uuid: string;
  slug: string;
  backup: string;
}

/** A request on a route that names this knowledge box (by its path parameter, slug, backup or body member). */
export function naming(def: RouteDef, kb: KbNames, upper = false): { path: string; body?: unknown } {
  const params: Record<string, string> = { ...PARAM_SAMPLES };
  const ref = def.kb as KbRef | undefined;
  let body: unknown;
  if (ref && "param" in ref) params[ref.param] = ref.as === "id" ? (upper ? kb.uuid.toUpperCase() : kb.uuid) : kb[ref.as];
  if (ref && "body" in ref) body = { ...(sampleBody(def)?.body as object), [ref.body]: kb.uuid };
  return { path: buildPath(def.path, params), body };
}

/** The route's path with every parameter at its sample value. */
export function samplePath(def: RouteDef, override: Record<string, string> = {}): string {
  const missing = pathParams(def.path).filter((p) => !(p in PARAM_SAMPLES) && !(p in override));
  if (missing.length) throw new Error(`${def.method} ${def.path}: add a sample for :${missing.join(", :")} to PARAM_SAMPLES`);
  return buildPath(def.path, { ...PARAM_SAMPLES, ...override });
}
