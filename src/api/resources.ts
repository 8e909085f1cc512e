import { z } from "zod";
import { BoolString, Classification, FieldType, IntString, ResourceSlug, repeated, Security } from "./common.js";
import { ConversationField, FileField, KeyValueField, LinkField, Message, TextField, UserFieldMetadata } from "./fields.js";
import { type Method, type Role, route, type StreamKind } from "./route.js";

export const Origin = z.object({
  source_id: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  created: z.string().nullable().optional(),
  modified: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  tags: z.array(z.string()).optional(),
  collaborators: z.array(z.string()).optional(),
  filename: z.string().nullable().optional(),
  related: z.array(z.string()).optional(),
  path: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  sync_metadata: z
    .object({
      file_id: z.string().nullable().optional(),
      auth_provider: z.string().nullable().optional(),
      content_hash: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type Origin = z.infer<typeof Origin>;

const RelationNode = z.object({ value: z.string(), type: z.string().optional(), group: z.string().optional() });
export const Relation = z.object({
  relation: z.string(),
  label: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  from: RelationNode.nullable().optional(),
  to: RelationNode,
});

export const UserMetadata = z.object({
  classifications: z.array(Classification).optional(),
  relations: z.array(Relation).optional(),
});

export const ResourceMetadataInput = z.object({
  metadata: z.record(z.string(), z.string()).optional(),
  language: z.string().nullable().optional(),
  languages: z.array(z.string()).optional(),
});

const FieldIdKey = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[a-zA-Z0-9:_-]+$/, "Field id must match '^[a-zA-Z0-9:_-]+$'");

/** Attributes shared by create and update payloads. */
const resourceAttributes = {
  title: z.string().max(10_000).nullable().optional(),
  summary: z.string().max(100_000).nullable().optional(),
  icon: z.string().max(255).nullable().optional(),
  thumbnail: z.string().max(2048).nullable().optional(),
  metadata: ResourceMetadataInput.nullable().optional(),
  usermetadata: UserMetadata.nullable().optional(),
  fieldmetadata: z.array(UserFieldMetadata).nullable().optional(),
  origin: Origin.nullable().optional(),
  extra: z
    .object({ metadata: z.record(z.string(), z.unknown()) })
    .nullable()
    .optional(),
  hidden: z.boolean().nullable().optional(),
  security: Security.nullable().optional(),
  texts: z.record(FieldIdKey, TextField).optional(),
  links: z.record(FieldIdKey, LinkField).optional(),
  files: z.record(FieldIdKey, FileField).optional(),
  conversations: z.record(FieldIdKey, ConversationField).optional(),
  key_values: z.record(FieldIdKey, KeyValueField).optional(),
  processing_options: z.record(z.string(), z.unknown()).nullable().optional(),
  wait_for_commit: z.boolean().optional(),
  skip_store: z.boolean().optional(),
};

export const CreateResource = z.strictObject({ slug: ResourceSlug.nullable().optional(), ...resourceAttributes });
export type CreateResource = z.infer<typeof CreateResource>;
export const UpdateResource = z.strictObject({ slug: ResourceSlug.nullable().optional(), ...resourceAttributes });
export type UpdateResource = z.infer<typeof UpdateResource>;

export const SHOW = ["basic", "origin", "extra", "relations", "values", "extracted", "errors", "security"] as const;
export const Show = z.enum(SHOW);
export type Show = z.infer<typeof Show>;
export const EXTRACTED = ["metadata", "vectors", "large_metadata", "text", "link", "file", "question_answers"] as const;

export const GetResourceQuery = z.object({
  show: repeated(Show),
  field_type: repeated(FieldType),
  extracted: repeated(z.enum(EXTRACTED)),
});
export type GetResourceQuery = z.infer<typeof GetResourceQuery>;

/** A resource as served: the stored record with unset members omitted. */
export const ResourceOut = z.looseObject({ id: z.string() });
export type ResourceOut = z.infer<typeof ResourceOut>;

const KbOnly = z.object({ kbid: z.string() });
const ById = z.object({ kbid: z.string(), rid: z.string() });
const BySlug = z.object({ kbid: z.string(), rslug: z.string() });

/** Resource routes come in two forms, by id and by slug; both resolve to the same service call. */
function byIdAndSlug<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, E extends z.ZodRawShape = {}>(
  method: Method,
  suffix: string,
  spec: {
    query?: Q;
    body?: B;
    bodyKind?: "json" | "raw" | "none";
    response?: R;
    status?: number;
    role: Role;
    summary: string;
    stream?: StreamKind;
  },
  extraParams: E = {} as E,
) {
  return {
    byId: route({ method, path: `/api/v1/kb/:kbid/resource/:rid${suffix}`, params: ById.extend(extraParams), ...spec }),
    bySlug: route({ method, path: `/api/v1/kb/:kbid/slug/:rslug${suffix}`, params: BySlug.extend(extraParams), ...spec }),
  };
}

export const createResource = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/resources",
  params: KbOnly,
  body: CreateResource,
  response: z.object({ uuid: z.string(), elapsed: z.number().optional(), seqid: z.number().int() }),
  status: 201,
  role: "WRITER",
  summary: "Create a resource",
});

export const ListResourcesQuery = z.object({
  page: IntString.pipe(z.number().int().min(0)).default(0),
  size: IntString.pipe(z.number().int().min(1).max(200)).default(20),
});
export const listResources = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/resources",
  params: KbOnly,
  query: ListResourcesQuery,
  response: z.object({
    resources: z.array(ResourceOut),
    pagination: z.object({ page: z.number(), size: z.number(), last: z.boolean() }),
  }),
  role: "READER",
  summary: "List resources, paginated",
});

export const getResource = byIdAndSlug("GET", "", {
  query: GetResourceQuery,
  response: ResourceOut,
  role: "READER",
  summary: "Get a resource",
});
export const headResource = byIdAndSlug("HEAD", "", { role: "READER", summary: "Does a resource exist" });
export const updateResource = byIdAndSlug("PATCH", "", {
  body: UpdateResource,
  response: z.object({ seqid: z.number().int() }),
  role: "WRITER",
  summary: "Update a resource",
});
export const deleteResource = byIdAndSlug("DELETE", "", { status: 204, role: "WRITER", summary: "Delete a resource" });
export const reprocessResource = byIdAndSlug("POST", "/reprocess", {
  query: z.object({ reset_title: BoolString.optional() }),
  response: z.object({ seqid: z.number().int().nullable() }),
  status: 202,
  role: "WRITER",
  summary: "Process a resource again",
});

/** Field routes name the kind in the path; the PUT body schema is the kind's. */
export const FIELD_BODIES = {
  text: TextField,
  link: LinkField,
  file: FileField,
  conversation: ConversationField,
  key_value: KeyValueField,
} as const;
export type WritableFieldType = keyof typeof FIELD_BODIES;
export const WritableFieldType = z.enum(["text", "link", "file", "conversation", "key_value"]);

const FieldParams = { field_type: FieldType, field_id: FieldIdKey };

export const putField = byIdAndSlug(
  "PUT",
  "/:field_type/:field_id",
  {
    body: z.unknown(),
    response: z.object({ seqid: z.number().int() }),
    status: 201,
    role: "WRITER",
    summary: "Add or replace a field (body per field kind)",
  },
  { field_type: WritableFieldType, field_id: FieldIdKey },
);

/** A field GET's show: the resource's values, or the upstream field-level ones (value, extracted, error). */
export const FieldShow = z.enum([...SHOW, "value", "error"]);
export const GetFieldQuery = z.object({
  show: repeated(FieldShow),
  extracted: repeated(z.enum(EXTRACTED)),
  /** A conversation's page of messages (1-based; the whole conversation is one page). */
  page: IntString.pipe(z.number().int().min(1)).optional(),
});
export const getField = byIdAndSlug(
  "GET",
  "/:field_type/:field_id",
  {
    query: GetFieldQuery,
    response: z.looseObject({ field_type: z.string(), field_id: z.string() }),
    role: "READER",
    summary: "Get a field",
  },
  FieldParams,
);
export const deleteField = byIdAndSlug(
  "DELETE",
  "/:field_type/:field_id",
  { status: 204, role: "WRITER", summary: "Delete a field" },
  FieldParams,
);
export const reprocessField = byIdAndSlug(
  "POST",
  "/:field_type/:field_id/reprocess",
  { response: z.object({ seqid: z.number().int().nullable() }), status: 202, role: "WRITER", summary: "Process one field again" },
  FieldParams,
);

export const appendMessages = byIdAndSlug(
  "PUT",
  "/conversation/:field_id/messages",
  {
    body: z.array(Message).min(1).max(10_000),
    response: z.object({ seqid: z.number().int() }),
    role: "WRITER",
    summary: "Append conversation messages",
  },
  { field_id: FieldIdKey },
);

export { FieldIdKey as FieldId };
