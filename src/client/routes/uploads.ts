// Generated from src/api/uploads.ts by scripts/gen-routes.ts (`npm run gen:routes`): do not edit.
/** The routes of src/api/uploads.ts as RouteRefs (method and path), its JSON constants, and its types. */
import type * as api from "../../api/uploads.js";
import type { Routed } from "../client.js";

export type * from "../../api/uploads.js";

export const TUS_CHUNK: typeof api.TUS_CHUNK = 5242880;
export const TUS_VERSION: typeof api.TUS_VERSION = "1.0.0";
export const UPLOAD_HEADERS: typeof api.UPLOAD_HEADERS = {
  filename: "x-filename",
  md5: "x-md5",
  language: "x-language",
  password: "x-password",
  extractStrategy: "x-extract-strategy",
  splitStrategy: "x-split-strategy",
};
export const downloadField: Routed<typeof api.downloadField> = {
  byId: { method: "GET", path: "/api/v1/kb/:kbid/resource/:rid/file/:field_id/download/field", stream: false },
  bySlug: { method: "GET", path: "/api/v1/kb/:kbid/slug/:rslug/file/:field_id/download/field", stream: false },
};
export const tusCreate: Routed<typeof api.tusCreate> = {
  kb: { method: "POST", path: "/api/v1/kb/:kbid/tusupload", stream: false },
  byId: { method: "POST", path: "/api/v1/kb/:kbid/resource/:rid/file/:field/tusupload", stream: false },
  bySlug: { method: "POST", path: "/api/v1/kb/:kbid/slug/:rslug/file/:field/tusupload", stream: false },
};
export const tusHead: Routed<typeof api.tusHead> = {
  kb: { method: "HEAD", path: "/api/v1/kb/:kbid/tusupload/:upload_id", stream: false },
  byId: { method: "HEAD", path: "/api/v1/kb/:kbid/resource/:rid/file/:field/tusupload/:upload_id", stream: false },
  bySlug: { method: "HEAD", path: "/api/v1/kb/:kbid/slug/:rslug/file/:field/tusupload/:upload_id", stream: false },
};
export const tusPatch: Routed<typeof api.tusPatch> = {
  kb: { method: "PATCH", path: "/api/v1/kb/:kbid/tusupload/:upload_id", stream: false },
  byId: { method: "PATCH", path: "/api/v1/kb/:kbid/resource/:rid/file/:field/tusupload/:upload_id", stream: false },
  bySlug: { method: "PATCH", path: "/api/v1/kb/:kbid/slug/:rslug/file/:field/tusupload/:upload_id", stream: false },
};
export const upload: Routed<typeof api.upload> = {
  kb: { method: "POST", path: "/api/v1/kb/:kbid/upload", stream: false },
  byId: { method: "POST", path: "/api/v1/kb/:kbid/resource/:rid/file/:field/upload", stream: false },
  bySlug: { method: "POST", path: "/api/v1/kb/:kbid/slug/:rslug/file/:field/upload", stream: false },
};
