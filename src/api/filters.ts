import { z } from "zod";
import { DateTime, FieldType, ResourceStatus } from "./common.js";

/** Field properties a `filter_expression.field` (and catalog `resource`) expression can test. */
const fieldProps = [
  z.strictObject({ prop: z.literal("resource"), id: z.string().optional(), slug: z.string().optional() }),
  z.strictObject({ prop: z.literal("field"), type: FieldType, name: z.string().optional() }),
  z.strictObject({ prop: z.literal("keyword"), word: z.string().min(1) }),
  z.strictObject({ prop: z.literal("created"), since: DateTime.optional(), until: DateTime.optional() }),
  z.strictObject({ prop: z.literal("modified"), since: DateTime.optional(), until: DateTime.optional() }),
  z.strictObject({ prop: z.literal("label"), labelset: z.string().min(1), label: z.string().optional() }),
  z.strictObject({ prop: z.literal("resource_mimetype"), type: z.string().min(1), subtype: z.string().optional() }),
  z.strictObject({ prop: z.literal("field_mimetype"), type: z.string().min(1), subtype: z.string().optional() }),
  z.strictObject({ prop: z.literal("entity"), subtype: z.string().min(1), value: z.string().optional() }),
  z.strictObject({ prop: z.literal("language"), language: z.string().min(1), only_primary: z.boolean().default(false) }),
  z.strictObject({ prop: z.literal("origin_tag"), tag: z.string() }),
  z.strictObject({ prop: z.literal("origin_metadata"), field: z.string(), value: z.string().optional() }),
  z.strictObject({ prop: z.literal("origin_path"), prefix: z.string().optional() }),
  z.strictObject({ prop: z.literal("origin_source"), id: z.string().optional() }),
  z.strictObject({ prop: z.literal("origin_collaborator"), collaborator: z.string() }),
  z.strictObject({ prop: z.literal("generated"), by: z.literal("data-augmentation"), da_task: z.string().optional() }),
] as const;

export const FieldProp = z.discriminatedUnion("prop", [...fieldProps]);
export type FieldProp = z.infer<typeof FieldProp>;
export const CatalogProp = z.discriminatedUnion("prop", [
  ...fieldProps,
  z.strictObject({ prop: z.literal("status"), status: ResourceStatus }),
]);
export type CatalogProp = z.infer<typeof CatalogProp>;
export const ParagraphProp = z.discriminatedUnion("prop", [
  z.strictObject({ prop: z.literal("label"), labelset: z.string().min(1), label: z.string().optional() }),
  z.strictObject({
    prop: z.literal("kind"),
    kind: z.enum(["TEXT", "OCR", "INCEPTION", "DESCRIPTION", "TRANSCRIPT", "TITLE", "TABLE"]),
  }),
]);
export type ParagraphProp = z.infer<typeof ParagraphProp>;
export const KeyValueProp = z.union([
  z.strictObject({
    prop: z.literal("key_value").optional(),
    schema_id: z.string(),
    key: z.string(),
    eq: z.union([z.string(), z.number()]),
  }),
  z.strictObject({ prop: z.literal("key_value").optional(), schema_id: z.string(), key: z.string(), contains: z.string() }),
  z.strictObject({
    prop: z.literal("key_value").optional(),
    schema_id: z.string(),
    key: z.string(),
    gte: z.union([z.string(), z.number()]).optional(),
    lte: z.union([z.string(), z.number()]).optional(),
  }),
]);
export type KeyValueProp = z.infer<typeof KeyValueProp>;

/** A boolean expression over leaves of type T. */
export type Expr<T> = { and: Expr<T>[] } | { or: Expr<T>[] } | { not: Expr<T> } | T;

/** `{and}`, `{or}`, `{not}` and `{operands}` (an alias of the `and` list) over a leaf schema; unknown members → 422. */
export function expr<T extends z.ZodType>(leaf: T): z.ZodType<Expr<z.output<T>>> {
  const self: z.ZodType<Expr<z.output<T>>> = z.lazy(() =>
    z.union([
      z.strictObject({ and: z.array(self).min(1) }),
      z.strictObject({ or: z.array(self).min(1) }),
      z.strictObject({ operands: z.array(self).min(1) }).transform((o) => ({ and: o.operands })),
      z.strictObject({ not: self }),
      leaf,
    ]),
  ) as unknown as z.ZodType<Expr<z.output<T>>>;
  return self;
}

export const FilterExpression = z.strictObject({
  field: expr(FieldProp).optional(),
  paragraph: expr(ParagraphProp).optional(),
  key_value: expr(KeyValueProp).optional(),
  operator: z.enum(["and", "or"]).default("and"),
});
export type FilterExpression = z.infer<typeof FilterExpression>;

export const CatalogFilterExpression = z.strictObject({ resource: expr(CatalogProp).optional() });
export type CatalogFilterExpression = z.infer<typeof CatalogFilterExpression>;

/** Legacy `filters`: facet strings (all must hold), or `{all|any|none|not_all: [...]}` objects. */
export const LegacyFilter = z.union([
  z.string().regex(/^\//, "Filters must be facet paths starting with /"),
  z.strictObject({
    all: z.array(z.string()).optional(),
    any: z.array(z.string()).optional(),
    none: z.array(z.string()).optional(),
    not_all: z.array(z.string()).optional(),
  }),
]);
export type LegacyFilter = z.infer<typeof LegacyFilter>;
