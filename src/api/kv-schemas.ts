import { z } from "zod";
import { route } from "./route.js";

const Name = z.string().regex(/^[^/.]{1,64}$/, "1 to 64 characters, without / or .");

/** One typed key of a key-value schema (the upstream KVSchemaField). */
export const KVSchemaField = z
  .object({
    key: Name,
    type: z.enum(["text", "integer", "float", "boolean", "date"]),
    description: z.string().default(""),
    required: z.boolean().default(true),
    range: z.boolean().default(false),
  })
  .refine((f) => !f.range || ["integer", "float", "date"].includes(f.type), {
    message: "only integer, float and date fields can be ranges",
    path: ["range"],
  });

const uniqueKeys = (fields: { key: string }[] | null | undefined) =>
  !fields || new Set(fields.map((f) => f.key)).size === fields.length;

/** A key-value schema (the upstream KVSchema). */
export const KVSchema = z.object({
  name: Name,
  description: z.string().default(""),
  fields: z.array(KVSchemaField).max(50).default([]).refine(uniqueKeys, "Schema field keys must be unique"),
});
export type KVSchema = z.infer<typeof KVSchema>;

/** A change to a schema: absent members are kept (the upstream UpdateKVSchema; unknown members refused). */
export const UpdateKVSchema = z.strictObject({
  description: z.string().nullable().optional(),
  fields: z.array(KVSchemaField).max(50).nullable().optional().refine(uniqueKeys, "Schema field keys must be unique"),
});
export type UpdateKVSchema = z.infer<typeof UpdateKVSchema>;

const KbParams = z.object({ kbid: z.string() });
const SchemaParams = z.object({ kbid: z.string(), schema_id: z.string() });

export const listKvSchemas = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/kv-schemas",
  params: KbParams,
  response: z.object({ schemas: z.record(z.string(), KVSchema) }),
  role: "READER",
  summary: "The knowledge box's key-value schemas",
});
export const createKvSchema = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/kv-schemas",
  params: KbParams,
  body: KVSchema,
  response: KVSchema,
  status: 201,
  role: "WRITER",
  summary: "Create a key-value schema (at most 20 a knowledge box; 409 for a taken name)",
});
export const getKvSchema = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  params: SchemaParams,
  response: KVSchema,
  role: "READER",
  summary: "One key-value schema",
});
export const updateKvSchema = route({
  method: "PATCH",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  params: SchemaParams,
  body: UpdateKVSchema,
  response: KVSchema,
  role: "WRITER",
  summary: "Change a key-value schema's description or fields",
});
export const deleteKvSchema = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/kv-schemas/:schema_id",
  params: SchemaParams,
  status: 204,
  role: "WRITER",
  summary: "Delete a key-value schema",
});
