import { z } from "zod";
import { route } from "./route.js";

/** One LanceDB table of the daemon: opened, counted and read, or the error it gave. */
export const TableHealth = z.object({
  name: z.string(),
  ok: z.boolean(),
  rows: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type TableHealth = z.infer<typeof TableHealth>;

export const DoctorReport = z.object({
  data_dir: z.string(),
  /** Free bytes on the data dir's file system (null when the platform cannot tell). */
  free_bytes: z.number().nullable(),
  total_bytes: z.number().nullable(),
  /** Account-level tables (knowledge boxes, service accounts). */
  meta: z.array(TableHealth),
  kbs: z.array(z.object({ uuid: z.string(), slug: z.string(), tables: z.array(TableHealth) })),
  /** Live folder watchers of sync configurations; null when this daemon has no sync feature. */
  sync: z.object({ watching: z.array(z.string()) }).nullable(),
});
export type DoctorReport = z.infer<typeof DoctorReport>;

export const doctor = route({
  method: "GET",
  path: "/api/v1/kbox/doctor",
  response: DoctorReport,
  // It reports every knowledge box, so a key scoped to one may not read it.
  scope: "account",
  role: "MANAGER",
  summary: "Health of the data dir and of every LanceDB table (for `kbox doctor`)",
});
