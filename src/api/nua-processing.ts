import { z } from "zod";
import { IntString, repeated } from "./common.js";
import { route } from "./route.js";

/**
 * The understanding API's processing routes (hosted paths, zone-api.md §2b): a NUA key (or the socket's
 * owner, or an account key, through the account's local client) sends data, kbox processes it with its own
 * extraction, splitting and embedding, and the result is read back, streamed, pulled or posted to a webhook.
 */

/** Text formats are integers here: 0 PLAIN, 1 HTML, 2 MARKDOWN, 3 RST, 4 JSON. */
export const NUA_TEXT_FORMATS = ["PLAIN", "HTML", "MARKDOWN", "RST", "JSON"] as const;
const NuaFormat = z.union([z.number().int().min(0).max(4), z.enum(NUA_TEXT_FORMATS)]).default(0);
const NuaText = z.looseObject({ body: z.string().max(20 * 1024 * 1024), format: NuaFormat });
const Headers = z.record(z.string(), z.string());
const Message = z.looseObject({
  timestamp: z.string().nullable().optional(),
  who: z.string().nullable().optional(),
  to: z.array(z.string()).optional(),
  ident: z.string().min(1).max(250),
  content: z.looseObject({ text: z.string().nullable().optional(), format: NuaFormat.optional() }),
});
const Conversation = z.looseObject({ messages: z.array(Message).max(10_000) });

/** Where to POST the result; `secret` signs it (else the SHA-256 of the client's key, see docs/nua.md). */
export const WebhookConfig = z.looseObject({
  uri: z.string().url().max(4096).nullable().optional(),
  headers: Headers.optional(),
  secret: z.string().max(512).optional(),
});
export type WebhookConfig = z.infer<typeof WebhookConfig>;

/** PushPayload: every field kind; `kbid` is the caller's own label (its knowledge box), not a kbox box. */
export const PushPayload = z.looseObject({
  kbid: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .max(128)
    .nullable()
    .optional(),
  uuid: z.string().max(128).nullable().optional(),
  slug: z.string().max(250).nullable().optional(),
  title: z.string().max(10_000).nullable().optional(),
  userid: z.string().max(250).nullable().optional(),
  labels: z.array(z.string().max(250)).max(1000).default([]),
  source: z.number().int().nullable().optional(),
  genericfield: z.record(z.string(), NuaText).default({}),
  filefield: z.record(z.string(), z.string().max(1024)).default({}),
  linkfield: z
    .record(
      z.string(),
      z.looseObject({ link: z.string().url().max(8192), headers: Headers.optional(), cookies: Headers.optional() }),
    )
    .default({}),
  textfield: z.record(z.string(), NuaText).default({}),
  layoutfield: z
    .record(
      z.string(),
      z.looseObject({
        format: z.number().int().optional(),
        blocks: z.record(z.string(), z.looseObject({ payload: z.string().optional(), type: z.number().int().optional() })),
      }),
    )
    .default({}),
  conversationfield: z.record(z.string(), Conversation).default({}),
  generated_conversationfield: z.record(z.string(), Conversation).default({}),
  processing_options: z.looseObject({ ml_text: z.boolean().optional() }).nullable().optional(),
  learning_config: z
    .looseObject({ semantic_models: z.array(z.string()).optional(), semantic_model: z.string().nullable().optional() })
    .nullable()
    .optional(),
  webhook_config: WebhookConfig.nullable().optional(),
});
export type PushPayload = z.infer<typeof PushPayload>;
export type PushInput = z.input<typeof PushPayload>;

export const PushResponse = z.object({
  seqid: z.number().int().nullable(),
  account_seq: z.number().int().nullable(),
  queue: z.enum(["shared", "private"]),
  uuid: z.string(),
  processing_id: z.string(),
});

/** A processing request's status record; `response` is the processed record once completed. */
export const ProcessingRequest = z.looseObject({
  processing_id: z.string(),
  resource_id: z.string(),
  kbid: z.string().nullable(),
  title: z.string().nullable(),
  labels: z.array(z.string()),
  completed: z.boolean(),
  scheduled: z.boolean(),
  timestamp: z.string(),
  completed_at: z.string().nullable(),
  scheduled_at: z.string().nullable(),
  failed: z.boolean(),
  retries: z.number().int(),
  schedule_eta: z.number(),
  schedule_order: z.number().int(),
  request: z.unknown(),
  response: z.unknown().optional(),
});
export type ProcessingRequest = z.infer<typeof ProcessingRequest>;

export const ListRequestsQuery = z.object({
  cursor: z.string().max(512).optional(),
  limit: IntString.pipe(z.number().int().min(1).max(1000)).default(20),
  scheduled: z.enum(["true", "false"]).optional(),
  kbid: z.string().max(128).optional(),
  sort_on: z.enum(["timestamp", "scheduled_at", "completed_at"]).default("timestamp"),
  sort_order: z.enum(["asc", "desc"]).default("asc"),
});
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>;
const ListOut = z.object({ results: z.array(ProcessingRequest), cursor: z.string().nullable() });
const Id = z.object({ processing_id: z.string().max(128) });

/** The understanding API: a NUA key, an account-wide key or the socket owner (a key of one knowledge box has no client). */
const nua = { scope: "account", role: "READER" } as const;

export const uploadToProcess = route({
  method: "POST",
  path: "/api/v1/processing/upload",
  bodyKind: "raw",
  response: z.string(),
  status: 201,
  ...nua,
  summary: "Upload a file to process (raw body); answers the token a push's filefield takes",
});
export const pushV1 = route({
  method: "POST",
  path: "/api/v1/processing/push",
  body: PushPayload,
  response: PushResponse,
  ...nua,
  summary: "Send data to process (every field kind; processing_options, learning_config, webhook_config)",
});
export const pushV2 = route({ ...pushV1, path: "/api/v2/processing/push", summary: "Send data to process (v2)" });
export const listRequests = route({
  method: "GET",
  path: "/api/v1/processing/requests",
  query: ListRequestsQuery,
  response: ListOut,
  ...nua,
  summary: "Processed data of this client (cursor, scheduled, kbid, sort_on, sort_order)",
});
export const statusListV2 = route({ ...listRequests, path: "/api/v2/processing/status", summary: "Processing status list (v2)" });
export const getRequest = route({
  method: "GET",
  path: "/api/v1/processing/requests/:processing_id",
  params: Id,
  response: ProcessingRequest,
  ...nua,
  summary: "One processing request with its processed record",
});
export const statusV2 = route({
  ...getRequest,
  path: "/api/v2/processing/status/:processing_id",
  summary: "One processing status (v2)",
});

/** One server-sent event of a processing stream. */
export const ProcessingEvent = z.looseObject({
  type: z.enum(["scheduled", "progress", "completed", "failed"]),
  processing_id: z.string(),
});
export const streamResults = route({
  method: "GET",
  path: "/api/v1/processing/requests/:processing_id/results",
  params: Id,
  query: z.object({ data_types: repeated(z.string().max(64)) }),
  response: ProcessingEvent,
  stream: "sse",
  streamError: (detail: string) => ({ type: "failed", detail }),
  ...nua,
  summary: "Stream a request's progress and result as server-sent events until it completes",
});
export const pull = route({
  method: "GET",
  path: "/api/v1/processing/pull",
  response: z.looseObject({
    status: z.enum(["ok", "empty", "error"]),
    payload: z.unknown().optional(),
    msgid: z.string().optional(),
  }),
  ...nua,
  summary: "Pull the next completed result not pulled yet (legacy)",
});
export const downloadBinary = route({
  method: "GET",
  path: "/api/v1/processing/download",
  query: z.object({ token: z.string().min(1).max(1024) }),
  ...nua,
  summary: "Download a file sent to process, by its token",
});

/** Token usage of a NUA client (what `tokens_limit` is checked against). */
export const NuaUsage = z.object({
  client_id: z.string(),
  tokens_limit: z.number().nullable(),
  tokens_used: z.number().int(),
  by_kind: z.record(z.string(), z.number().int()),
  requests: z.number().int(),
});
export type ProcessingEvent = z.infer<typeof ProcessingEvent>;

const TusId = z.object({ upload_id: z.string().regex(/^[0-9a-f]{32}$/, "Unknown upload id") });
/** TUS creation of a file to process: empty body, `Upload-Length`, `Upload-Metadata` (filename, content_type). */
export const tusCreate = route({
  method: "POST",
  path: "/api/v1/processing/tusupload",
  bodyKind: "raw",
  status: 201,
  ...nua,
  summary: "Start a resumable (TUS) upload of a file to process",
});
export const tusPatch = route({
  method: "PATCH",
  path: "/api/v1/processing/tusupload/:upload_id",
  params: TusId,
  bodyKind: "raw",
  ...nua,
  summary: "Send a chunk of a TUS upload; the last one answers the upload token (a JSON string)",
});
export const tusHead = route({
  method: "HEAD",
  path: "/api/v1/processing/tusupload/:upload_id",
  params: TusId,
  ...nua,
  summary: "The offset of a TUS upload",
});
