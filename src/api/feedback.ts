import { z } from "zod";
import { route } from "./route.js";

/** Feedback on an answer (the upstream FeedbackRequest): `ident` is the ask's learning id. */
export const FeedbackRequest = z.object({
  ident: z.string().min(1).max(200),
  good: z.boolean(),
  task: z.literal("CHAT"),
  feedback: z.string().max(10_000).nullable().optional(),
  text_block_id: z.string().max(1000).nullable().optional(),
});
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;

/** A stored feedback: the request and when it arrived. */
export const Feedback = FeedbackRequest.extend({ created: z.string() });
export type Feedback = z.infer<typeof Feedback>;

const KbParams = z.object({ kbid: z.string() });

export const sendFeedback = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/feedback",
  params: KbParams,
  body: FeedbackRequest,
  response: z.null(),
  role: "READER",
  summary: "Say whether an answer was good; stored against the ask's learning id (the NUCLIA-LEARNING-ID header)",
});

export const listFeedback = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/feedback",
  params: KbParams,
  query: z.object({ ident: z.string().optional() }),
  response: z.object({ feedback: z.array(Feedback) }),
  role: "MANAGER",
  summary: "Feedback received, oldest first (kbox; `ident` narrows to one answer)",
});
