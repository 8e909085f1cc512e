// Generated from src/api/common.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The JSON constants and the types of src/api/common.ts. */
import type * as api from "../../api/common.js";

export type * from "../../api/common.js";

export const FIELD_LETTER: typeof api.FIELD_LETTER = {
  text: "t",
  file: "f",
  link: "u",
  conversation: "c",
  generic: "a",
  key_value: "k",
};
export const FIELD_MAP: typeof api.FIELD_MAP = {
  text: "texts",
  file: "files",
  link: "links",
  conversation: "conversations",
  generic: "generics",
  key_value: "key_values",
};
export const FIELD_TYPES: typeof api.FIELD_TYPES = ["text", "file", "link", "conversation", "generic", "key_value"];
export const LETTER_FIELD: typeof api.LETTER_FIELD = {
  t: "text",
  f: "file",
  u: "link",
  c: "conversation",
  a: "generic",
  k: "key_value",
};
