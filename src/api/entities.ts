import { z } from "zod";
import { route } from "./route.js";

/** One entity of a group (the upstream Entity): its value, and the values it stands for. */
export const Entity = z.object({
  value: z.string().min(1).max(1000),
  merged: z.boolean().default(false),
  represents: z.array(z.string()).default([]),
});
/** An entities group (the upstream EntitiesGroup). */
export const EntitiesGroup = z.object({
  title: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  custom: z.boolean(),
  entities: z.record(z.string(), Entity),
});
export type EntitiesGroup = z.infer<typeof EntitiesGroup>;

const GroupName = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[^/]+$/, "Group names cannot contain /");

export const CreateEntitiesGroup = z.object({
  group: GroupName,
  entities: z.record(z.string(), Entity).default({}),
  title: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
});
export type CreateEntitiesGroup = z.infer<typeof CreateEntitiesGroup>;

export const UpdateEntitiesGroup = z.object({
  title: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  add: z.record(z.string(), Entity).default({}),
  update: z.record(z.string(), Entity).default({}),
  delete: z.array(z.string()).default([]),
});
export type UpdateEntitiesGroup = z.infer<typeof UpdateEntitiesGroup>;

const KbParams = z.object({ kbid: z.string() });
const GroupParams = z.object({ kbid: z.string(), group: GroupName });

export const listEntitiesGroups = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/entitiesgroups",
  params: KbParams,
  response: z.object({
    uuid: z.string(),
    groups: z.record(z.string(), EntitiesGroup.omit({ entities: true }).extend({ entities: z.object({}) })),
  }),
  role: "READER",
  summary: "The knowledge box's entities groups (without their entities, as upstream)",
});
export const createEntitiesGroup = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/entitiesgroups",
  params: KbParams,
  body: CreateEntitiesGroup,
  response: z.null(),
  role: "WRITER",
  summary: "Create an entities group (409 when it exists)",
});
export const getEntitiesGroup = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  params: GroupParams,
  response: EntitiesGroup,
  role: "READER",
  summary: "One entities group with its entities",
});
export const updateEntitiesGroup = route({
  method: "PATCH",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  params: GroupParams,
  body: UpdateEntitiesGroup,
  response: z.null(),
  role: "WRITER",
  summary: "Change an entities group: title, colour, entities to add, update or delete",
});
export const deleteEntitiesGroup = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/entitiesgroup/:group",
  params: GroupParams,
  status: 204,
  role: "WRITER",
  summary: "Delete an entities group",
});
