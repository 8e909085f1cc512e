// Generated from src/api/fields.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The JSON constants and the types of src/api/fields.ts. */
import type * as api from "../../api/fields.js";

export type * from "../../api/fields.js";

export const MAX_TEXT_BODY: typeof api.MAX_TEXT_BODY = 20971520;
export const TEXT_FORMATS: typeof api.TEXT_FORMATS = [
  "PLAIN",
  "HTML",
  "RST",
  "MARKDOWN",
  "JSON",
  "KEEP_MARKDOWN",
  "JSONL",
  "PLAIN_BLANKLINE_SPLIT",
];
