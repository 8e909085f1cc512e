// Generated from src/api/synonyms.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/synonyms.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/synonyms.js";
import type { Routed } from "../client.js";

export type * from "../../api/synonyms.js";

export const deleteSynonyms: Routed<typeof api.deleteSynonyms> = {
  method: "DELETE",
  path: "/api/v1/kb/:kbid/custom-synonyms",
  stream: false,
};
export const getSynonyms: Routed<typeof api.getSynonyms> = {
  method: "GET",
  path: "/api/v1/kb/:kbid/custom-synonyms",
  stream: false,
};
export const setSynonyms: Routed<typeof api.setSynonyms> = {
  method: "PUT",
  path: "/api/v1/kb/:kbid/custom-synonyms",
  stream: false,
};
