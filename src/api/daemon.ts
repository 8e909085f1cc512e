import { z } from "zod";
import { route } from "./route.js";

/** The version handshake: the client compares `protocol` and restarts a daemon that differs. */
export const Hello = z.object({
  name: z.literal("kboxd"),
  version: z.string(),
  protocol: z.number().int(),
  pid: z.number().int(),
  started: z.string(),
  data_dir: z.string(),
  listen: z.array(z.string()),
});
export type Hello = z.infer<typeof Hello>;

export const hello = route({
  method: "GET",
  path: "/api/v1/kbox/hello",
  response: Hello,
  scope: "authenticated",
  role: "READER",
  summary: "Daemon identity and protocol version",
});

export const DaemonStatus = Hello.extend({
  uptime_s: z.number(),
  kbs: z.number().int(),
  queue: z.object({ pending: z.number().int(), running: z.number().int() }).optional(),
  rss_bytes: z.number().int(),
  /** The daemon's JavaScript heap in use; the rest of its RSS is native (LanceDB, models). */
  heap_bytes: z.number().int().optional(),
  /** Memory of JavaScript objects held outside the heap (Arrow and I/O buffers). */
  external_bytes: z.number().int().optional(),
  /** LanceDB's index and metadata caches (KBOX_INDEX_CACHE_MB, KBOX_METADATA_CACHE_MB bound them). */
  cache_bytes: z.number().int().optional(),
  /** The memory allocator: "jemalloc" when preloaded (kbox does it when the system has it), else "system". */
  allocator: z.string().optional(),
  /** Extraction worker processes and their resident memory (not counted in rss_bytes). */
  extract_workers: z.object({ workers: z.number().int(), rss_bytes: z.number().int() }).optional(),
});
export const status = route({
  method: "GET",
  path: "/api/v1/kbox/status",
  response: DaemonStatus,
  scope: "authenticated",
  role: "READER",
  summary: "Daemon health: uptime, knowledge boxes, queue, memory",
});

export const shutdown = route({
  method: "POST",
  path: "/api/v1/kbox/shutdown",
  response: z.object({ stopping: z.boolean() }),
  status: 202,
  // Only the socket's owner stops the daemon, never a TCP client whatever its roles.
  scope: "owner",
  role: "OWNER",
  summary: "Drain in-flight work and stop the daemon",
});
