import { z } from "zod";

/** Knowledge box slug, as the spec constrains it. */
export const KbSlug = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[a-z0-9_-]+$/, "String should match pattern '^[a-z0-9_-]+$'");
/** Resource slugs and field ids: word characters, colon and dash; never a path. */
export const ResourceSlug = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[a-zA-Z0-9:_-]+$/, "String should match pattern '^[a-zA-Z0-9:_-]+$'");
export const FieldId = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[a-zA-Z0-9:_-]+$/, "String should match pattern '^[a-zA-Z0-9:_-]+$'");
export const Rid = z.string().regex(/^[0-9a-f]{32}$/, "Resource id must be 32 hexadecimal characters");
export const Uuid = z.string().uuid();
/** ISO 8601 date-time, with or without offset. */
/** A URL the daemon may be asked to fetch: http or https only (file:, data:, javascript: ... are refused with 422). */
export const HttpUrl = z
  .string()
  .url()
  .max(8192)
  .refine((s) => /^https?:\/\//i.test(s), "URL must use http or https");

export const DateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "Input should be a valid datetime");

/** Boolean flags in query strings and headers arrive as text; accept the usual spellings, any case. */
export const BoolString = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  const s = v.toLowerCase();
  if (["true", "1", "yes", "on"].includes(s)) return true;
  if (["false", "0", "no", "off", ""].includes(s)) return false;
  return v;
}, z.boolean());

/** A flag header as the hosted service reads it: a spelling BoolString does not know, or none, is false. */
export const HeaderFlag = BoolString.catch(false);

/** Integers in query strings arrive as text. */
export const IntString = z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int());

/** A query parameter that may be repeated: always an array. */
export function repeated<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).optional());
}

export const FIELD_TYPES = ["text", "file", "link", "conversation", "generic", "key_value"] as const;
export const FieldType = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldType>;

/** Field type ↔ the one-letter code used in field keys and paragraph ids. */
export const FIELD_LETTER: Record<FieldType, string> = {
  text: "t",
  file: "f",
  link: "u",
  conversation: "c",
  generic: "a",
  key_value: "k",
};
export const LETTER_FIELD: Record<string, FieldType> = Object.fromEntries(
  Object.entries(FIELD_LETTER).map(([k, v]) => [v, k as FieldType]),
);
/** Field type ↔ the plural map name inside `data` and create payloads. */
export const FIELD_MAP: Record<FieldType, string> = {
  text: "texts",
  file: "files",
  link: "links",
  conversation: "conversations",
  generic: "generics",
  key_value: "key_values",
};

export const ResourceStatus = z.enum(["PENDING", "PROCESSED", "ERROR", "EMPTY", "BLOCKED", "EXPIRED"]);
export type ResourceStatus = z.infer<typeof ResourceStatus>;

export const Security = z.object({ access_groups: z.array(z.string()).default([]) });
/** Request-level security: `groups`, with `access_groups` as an alias. */
export const RequestSecurity = z
  .object({ groups: z.array(z.string()).optional(), access_groups: z.array(z.string()).optional() })
  .transform((s) => ({ groups: s.groups ?? s.access_groups ?? [] }));

export const Classification = z.object({
  labelset: z.string().min(1),
  label: z.string().min(1),
  cancelled_by_user: z.boolean().optional(),
});
export type Classification = z.infer<typeof Classification>;

/** The wire's error object on a field or resource. */
export const FieldError = z.object({
  body: z.string(),
  code: z.number().int(),
  code_str: z.string(),
  created: z.string(),
  severity: z.enum(["ERROR", "WARNING"]),
});
export type FieldError = z.infer<typeof FieldError>;

export const Pagination = z.object({ page: z.number().int(), size: z.number().int(), last: z.boolean() });
