import { z } from "zod";
import { route } from "./route.js";

/** The upstream SummarizeRequest. */
export const SummarizeRequest = z.object({
  generative_model: z.string().nullable().optional(),
  user_prompt: z.string().max(20_000).nullable().optional(),
  /** Ids or slugs; ones not found are left out. */
  resources: z.array(z.string().min(1)).min(1).max(100),
  summary_kind: z.enum(["simple", "extended"]).default("simple"),
});
export type SummarizeRequest = z.infer<typeof SummarizeRequest>;

/** The upstream SummarizedResponse (with which model wrote it, kbox's member). */
export const SummarizedResponse = z.object({
  resources: z.record(z.string(), z.object({ summary: z.string(), tokens: z.number().int() })),
  summary: z.string(),
  model: z.string(),
});
export type SummarizedResponse = z.infer<typeof SummarizedResponse>;

export const summarize = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/summarize",
  params: z.object({ kbid: z.string() }),
  body: SummarizeRequest,
  response: SummarizedResponse,
  role: "READER",
  summary: "Summarize resources: extractive (their most central sentences) unless a generative model is configured or named",
});
