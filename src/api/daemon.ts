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
  role: "READER",
  summary: "Daemon identity and protocol version",
});

export const DaemonStatus = Hello.extend({
  uptime_s: z.number(),
  kbs: z.number().int(),
  queue: z.object({ pending: z.number().int(), running: z.number().int() }).optional(),
  rss_bytes: z.number().int(),
});
export const status = route({
  method: "GET",
  path: "/api/v1/kbox/status",
  response: DaemonStatus,
  role: "READER",
  summary: "Daemon health: uptime, knowledge boxes, queue, memory",
});

export const shutdown = route({
  method: "POST",
  path: "/api/v1/kbox/shutdown",
  response: z.object({ stopping: z.boolean() }),
  status: 202,
  role: "OWNER",
  summary: "Drain in-flight work and stop the daemon",
});
