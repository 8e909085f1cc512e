import { z } from "zod";
import { BoolString, FieldId, IntString, ResourceSlug } from "./common.js";
import { CreateResource } from "./resources.js";
import { type Method, type Role, route } from "./route.js";

/** Upload bodies are raw bytes; these headers carry what a JSON body would. */
export const UPLOAD_HEADERS = {
  filename: "x-filename",
  md5: "x-md5",
  language: "x-language",
  password: "x-password",
  extractStrategy: "x-extract-strategy",
  splitStrategy: "x-split-strategy",
} as const;

export const TUS_VERSION = "1.0.0";
/** Chunk size the hosted clients send; kbox's own client uses it too. */
export const TUS_CHUNK = 5 * 1024 * 1024;

/** TUS request headers, as sent (lower case). */
export const TusCreateHeaders = z.object({
  "tus-resumable": z.string().optional(),
  "upload-length": IntString.pipe(z.number().int().min(0)).optional(),
  "upload-defer-length": z.literal("1").optional(),
  "upload-metadata": z.string().max(16_384).optional(),
});
export const TusPatchHeaders = z.object({
  "upload-offset": IntString.pipe(z.number().int().min(0)),
  "upload-length": IntString.pipe(z.number().int().min(0)).optional(),
});

/** Answer of a direct upload. */
export const UploadResponse = z.object({ seqid: z.number().int().nullable(), uuid: z.string(), field_id: z.string() });
export type UploadResponse = z.infer<typeof UploadResponse>;

const KbOnly = z.object({ kbid: z.string() });
const FieldById = z.object({ kbid: z.string(), rid: z.string(), field: FieldId });
const FieldBySlug = z.object({ kbid: z.string(), rslug: ResourceSlug, field: FieldId });
const UploadId = { upload_id: z.string().regex(/^[0-9a-f]{32}$/, "Unknown upload id") };

type Spec = {
  bodyKind?: "json" | "raw" | "none";
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  status?: number;
  role: Role;
  summary: string;
};

/** The three forms of an upload route: a new resource, a field by resource id, a field by slug. */
function forms<S extends Spec>(method: Method, suffix: string, spec: S, extra: z.ZodRawShape = {}) {
  return {
    kb: route({ method, path: `/api/v1/kb/:kbid/${suffix}`, params: KbOnly.extend(extra), ...spec }),
    byId: route({
      method,
      path: `/api/v1/kb/:kbid/resource/:rid/file/:field/${suffix}`,
      params: FieldById.extend(extra),
      ...spec,
    }),
    bySlug: route({
      method,
      path: `/api/v1/kb/:kbid/slug/:rslug/file/:field/${suffix}`,
      params: FieldBySlug.extend(extra),
      ...spec,
    }),
  };
}

/** Direct upload: the raw body is the file; `x-*` headers describe it. */
export const upload = forms("POST", "upload", {
  bodyKind: "raw",
  query: z.object({ rslug: ResourceSlug.optional() }),
  response: UploadResponse,
  status: 201,
  role: "WRITER",
  summary: "Upload a file (raw body) as a new resource or into a file field",
});

/** TUS creation; at the knowledge-box level the body may be a create-resource payload. */
export const tusCreate = forms("POST", "tusupload", {
  bodyKind: "json",
  body: CreateResource.optional(),
  status: 201,
  role: "WRITER",
  summary: "Start a resumable (TUS 1.0.0) upload",
});

/** TUS chunk: raw bytes at `upload-offset`. */
export const tusPatch = forms(
  "PATCH",
  "tusupload/:upload_id",
  { bodyKind: "raw", role: "WRITER", summary: "Send a chunk of a TUS upload" },
  UploadId,
);

/** TUS offset query (HEAD). */
export const tusHead = forms(
  "HEAD",
  "tusupload/:upload_id",
  { role: "WRITER", summary: "Offset and length of a TUS upload" },
  UploadId,
);

/** The stored bytes of a file field; `Range` supported. */
export const downloadField = {
  byId: route({
    method: "GET",
    path: "/api/v1/kb/:kbid/resource/:rid/file/:field_id/download/field",
    params: z.object({ kbid: z.string(), rid: z.string(), field_id: FieldId }),
    query: z.object({ inline: BoolString.optional() }),
    role: "READER",
    summary: "Download a file field",
  }),
  bySlug: route({
    method: "GET",
    path: "/api/v1/kb/:kbid/slug/:rslug/file/:field_id/download/field",
    params: z.object({ kbid: z.string(), rslug: ResourceSlug, field_id: FieldId }),
    query: z.object({ inline: BoolString.optional() }),
    role: "READER",
    summary: "Download a file field",
  }),
};

export { CreateResource };
