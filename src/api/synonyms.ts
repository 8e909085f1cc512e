import { z } from "zod";
import { route } from "./route.js";

const KbParams = z.object({ kbid: z.string() });

/** Custom synonyms: a term and the words a keyword query for it also matches (the upstream KnowledgeBoxSynonyms). */
export const KnowledgeBoxSynonyms = z.object({
  synonyms: z.record(z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(100)),
});
export type KnowledgeBoxSynonyms = z.infer<typeof KnowledgeBoxSynonyms>;

const path = "/api/v1/kb/:kbid/custom-synonyms";
export const getSynonyms = route({
  method: "GET",
  path,
  params: KbParams,
  response: KnowledgeBoxSynonyms,
  role: "READER",
  summary: "The knowledge box's custom synonyms",
});
export const setSynonyms = route({
  method: "PUT",
  path,
  params: KbParams,
  body: KnowledgeBoxSynonyms,
  status: 204,
  role: "WRITER",
  summary: "Replace the custom synonyms; keyword queries expand each term to its synonyms",
});
export const deleteSynonyms = route({
  method: "DELETE",
  path,
  params: KbParams,
  status: 204,
  role: "WRITER",
  summary: "Remove every custom synonym",
});
