import { z } from "zod";
import { route } from "./route.js";

/** Predict Tokens: the named entities of a text (people, places, organisations, dates, numbers), found locally. */
export const predictTokens = route({
  method: "GET",
  path: "/api/v1/predict/tokens",
  query: z.object({ text: z.string().min(1).max(20_000), model: z.string().optional() }),
  response: z.object({
    tokens: z.array(z.object({ text: z.string(), ner: z.string(), start: z.number().int(), end: z.number().int() })),
    time: z.number(),
    input_tokens: z.number().int(),
  }),
  scope: "authenticated",
  role: "READER",
  summary: "Predict Tokens: named entities of a text with their offsets",
});
