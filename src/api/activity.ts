import { z } from "zod";
import { DateTime, IntString } from "./common.js";
import { route } from "./route.js";

/** The activity event types of the spec. */
export const EVENT_TYPES = [
  "visited",
  "modified",
  "deleted",
  "new",
  "search",
  "suggest",
  "indexed",
  "chat",
  "ask",
  "retrieve",
  "augment",
  "started",
  "stopped",
  "processed",
  // kbox: a guardrail policy flagged a query (blocked it, or only noted it for a monitoring policy).
  "guardrail",
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** Request headers an activity row takes its caller members from. */
export const ACTIVITY_HEADERS = {
  client: "x-platform-client",
  clientAlias: "x-ndb-client",
  user: "x-platform-user",
  userAlias: "x-nucliadb-user",
  forwardedFor: "x-forwarded-for",
} as const;

export const AGGREGATIONS = ["hour", "day", "week", "month", "quarter", "year", "millennium"] as const;
export const Aggregation = z.enum(AGGREGATIONS);
export type Aggregation = z.infer<typeof Aggregation>;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The operators of one filter member; audit-metadata items add `key` (which metadata key) and the string ones like/ilike. */
export const FilterOps = z
  .object({
    eq: Scalar.optional(),
    ne: Scalar.optional(),
    gt: Scalar.optional(),
    ge: Scalar.optional(),
    lt: Scalar.optional(),
    le: Scalar.optional(),
    isnull: z.boolean().optional(),
    isin: z.array(Scalar).optional(),
    isnotin: z.array(Scalar).optional(),
    like: z.string().optional(),
    ilike: z.string().optional(),
    key: z.string().optional(),
  })
  .strict();
export type FilterOps = z.infer<typeof FilterOps>;

/** The members a filter may name (a row's members, with its feedback split as the upstream filters name it). */
export const FILTER_MEMBERS = [
  "id",
  "date",
  "user_id",
  "user_type",
  "client_type",
  "total_duration",
  "platform_tokens",
  "question",
  "rephrased_question",
  "answer",
  "resources_count",
  "feedback_good",
  "feedback_comment",
  "model",
  "status",
  "resource_id",
  "learning_id",
  "retrieval_time",
] as const;

/** Filters: each member an object of operators; audit_metadata an array of them (one object accepted too). */
const memberFilters = Object.fromEntries(FILTER_MEMBERS.map((m) => [m, FilterOps.optional()])) as Record<
  (typeof FILTER_MEMBERS)[number],
  z.ZodOptional<typeof FilterOps>
>;

export const ActivityFilters = z
  .object({
    ...memberFilters,
    audit_metadata: z
      .union([z.array(FilterOps), FilterOps])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .optional(),
  })
  .strict();
export type ActivityFilters = z.output<typeof ActivityFilters>;

export const YearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "String should match pattern 'YYYY-MM'");

export const Pagination = z.object({
  limit: z.number().int().min(1).max(1000).default(10),
  starting_after: z.number().int().optional(),
  ending_before: z.number().int().optional(),
});

/** `show`: the members to return (id and date always), or "all". */
export const Show = z.union([z.literal("all"), z.array(z.string().max(100)).max(100)]).default(["date", "id"]);

export const ActivityQuery = z.object({
  year_month: YearMonth,
  filters: ActivityFilters,
  show: Show,
  pagination: Pagination.default({ limit: 10 }),
});
export type ActivityQuery = z.output<typeof ActivityQuery>;

/** One activity row: id and date, and the members `show` asked for. */
export const ActivityRow = z.record(z.string(), z.unknown());
export type ActivityRow = Record<string, unknown>;

export const DOWNLOAD_FORMATS = ["application/x-ndjson", "text/csv"] as const;

export const DownloadRequest = z.object({
  year_month: YearMonth,
  filters: ActivityFilters,
  show: Show,
  email_address: z.string().nullable().optional(),
  notify_via_email: z.boolean().default(false),
});

export const ActivityDownload = z.object({
  request_id: z.string(),
  download_type: z.string(),
  download_format: z.enum(DOWNLOAD_FORMATS),
  event_type: EventType,
  requested_at: z.string(),
  kb_id: z.string(),
  download_url: z.string().nullable(),
  /** kbox: rows in the file once it is ready. */
  rows: z.number().int().optional(),
});
export type ActivityDownload = z.infer<typeof ActivityDownload>;

export const MetricsPoint = z.object({ timestamp: z.string(), search: z.number(), chat: z.number(), ask: z.number() });
export type MetricsPoint = z.infer<typeof MetricsPoint>;

/** `from` is required: checked after the knowledge box (a missing box is a 404 first), 422 located at query.from. */
const RangeQuery = z.object({
  from: DateTime.optional(),
  to: DateTime.optional(),
  aggregation: Aggregation.default("millennium"),
});
const KbParams = z.object({ kbid: z.string() });
const EventParams = z.object({ kbid: z.string(), event_type: EventType });

export const activityMetrics = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/metrics",
  params: KbParams,
  query: RangeQuery,
  response: z.array(MetricsPoint),
  role: "READER",
  summary: "Searches, chats and asks per hour, day, ... (one point by default)",
});

export const activityMonths = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/:event_type/months",
  params: EventParams,
  response: z.object({ downloads: z.array(z.string()) }),
  role: "READER",
  summary: "Months (YYYY-MM) holding events of a type",
});

export const queryActivity = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/activity/:event_type/query",
  params: EventParams,
  body: ActivityQuery,
  response: ActivityRow,
  stream: "ndjson",
  role: "READER",
  summary: "Query activity logs of a month (NDJSON, one row a line; header has-more)",
});

export const requestActivityDownload = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/activity/:event_type/query/download",
  params: EventParams,
  /** The format; without an accept header (or with a wildcard), NDJSON. */
  headers: z.object({
    accept: z.preprocess((v) => (v === undefined || v === "*/*" ? DOWNLOAD_FORMATS[0] : v), z.enum(DOWNLOAD_FORMATS)),
  }),
  body: DownloadRequest,
  response: ActivityDownload,
  status: 202,
  role: "READER",
  summary: "Request a download of activity logs (NDJSON or CSV by the accept header)",
});

export const activityDownloadStatus = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/download_request/:request_id",
  params: z.object({ kbid: z.string(), request_id: z.string().max(100) }),
  response: ActivityDownload,
  role: "READER",
  summary: "A download request: download_url once the file is ready",
});

export const activityDownloadFile = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/activity/download_file/:request_id",
  params: z.object({ kbid: z.string(), request_id: z.string().max(100) }),
  response: z.string(),
  role: "READER",
  summary: "The file of a download request (NDJSON or CSV)",
});

/** The quality scores of an answer (the service's "REMi" metrics). */
export const QualityScores = z.object({
  answer_relevance: z.object({ score: z.number(), reason: z.string() }),
  context_relevance: z.array(z.number()),
  groundedness: z.array(z.number()),
  /** kbox: how the scores were computed (`lexical`, `cross-encoder`, `generative:<model>`). */
  method: z.string().optional(),
});
export type QualityScores = z.infer<typeof QualityScores>;

export const RemiQuery = z.object({
  context_relevance: z
    .object({
      value: z.number(),
      operation: z.enum(["gt", "lt", "eq"]),
      aggregation: z.enum(["average", "min", "max"]),
    })
    .nullable()
    .optional(),
  month: YearMonth,
  from_date: DateTime.nullable().optional(),
  to_date: DateTime.nullable().optional(),
  feedback_good: z.boolean().nullable().optional(),
  status: z.enum(["SUCCESS", "ERROR", "NO_CONTEXT"]).nullable().optional(),
  pagination: Pagination.default({ limit: 10 }),
});
export type RemiQuery = z.output<typeof RemiQuery>;

export const RemiItem = z.object({
  id: z.number().int(),
  question: z.string(),
  answer: z.string().nullable(),
  date: z.string(),
  remi: QualityScores.optional(),
});
export type RemiItem = z.infer<typeof RemiItem>;

export const remiQuery = route({
  method: "POST",
  path: "/api/v1/kb/:kbid/remi/query",
  params: KbParams,
  body: RemiQuery,
  response: z.object({ data: z.array(RemiItem), has_more: z.boolean() }),
  role: "READER",
  summary: "Answers of a month and their quality scores, by context relevance, status or feedback",
});

export const remiEvent = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/remi/events/:event_id",
  params: z.object({ kbid: z.string(), event_id: IntString }),
  response: RemiItem.extend({ context: z.array(z.object({ text: z.string(), text_block_id: z.string().nullable() })) }),
  role: "READER",
  summary: "One answer, its quality scores and its whole context",
});

export const QualityPoint = z.object({
  timestamp: z.string(),
  metrics: z.array(z.object({ name: z.string(), min: z.number(), max: z.number(), average: z.number() })),
});
export type QualityPoint = z.infer<typeof QualityPoint>;

export const remiScores = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/remi/scores",
  params: KbParams,
  query: RangeQuery,
  response: z.array(QualityPoint),
  role: "READER",
  summary: "Quality scores aggregated across time (min, max, average of each)",
});
