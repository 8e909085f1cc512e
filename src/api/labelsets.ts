import { z } from "zod";
import { route } from "./route.js";

export const Label = z.object({
  title: z.string(),
  related: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  uri: z.string().nullable().optional(),
});
/** A labelset: the labels a knowledge box offers, and what they apply to. */
export const LabelSet = z.object({
  title: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  multiple: z.boolean().default(true),
  /** What the labels apply to; resources when not said (the service reads an empty list, as older kbox stored, as resources). */
  kind: z.array(z.enum(["RESOURCES", "PARAGRAPHS", "SENTENCES", "SELECTIONS"])).default(["RESOURCES"]),
  labels: z.array(Label).default([]),
});
export type LabelSet = z.infer<typeof LabelSet>;

const Params = z.object({
  kbid: z.string(),
  labelset: z
    .string()
    .min(1)
    .max(250)
    .regex(/^[^/]+$/, "Labelset ids cannot contain /"),
});

export const setLabelset = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  params: Params,
  body: LabelSet,
  response: z.object({}).passthrough(),
  role: "WRITER",
  summary: "Create or replace a labelset",
});
export const getLabelset = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  params: Params,
  response: LabelSet,
  role: "READER",
  summary: "Read a labelset",
});
export const deleteLabelset = route({
  method: "DELETE",
  path: "/api/v1/kb/:kbid/labelset/:labelset",
  params: Params,
  response: z.object({}).passthrough(),
  role: "WRITER",
  summary: "Delete a labelset",
});
export const listLabelsets = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/labelsets",
  params: z.object({ kbid: z.string() }),
  response: z.object({ uuid: z.string(), labelsets: z.record(z.string(), LabelSet) }),
  role: "READER",
  summary: "Every labelset of a knowledge box",
});
